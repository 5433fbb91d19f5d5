import Foundation

extension ConnectOptions {
    /// The jump hosts this server is reached through, nearest first, each without jumps of its own (a hop's own
    /// jumps come before it, as OpenSSH uses a jump host's ProxyJump to reach it). Empty for a direct connection.
    public var hopChain: [ConnectOptions] { JumpChain.hops(of: self) }
}

extension SSHSession {
    /// Connects and logs in to a jump host that many sessions will share (`ChannelRelay(session:)` on it, then
    /// `connect(_:through:)` for each): `hop` with its own jumps, if any, reached first. Unlike `connect`, the errors
    /// name the hop even when it is reached directly ("bastion (10.0.0.1:22) refused the connection: …",
    /// "bastion (10.0.0.1:22): permission denied. …"), because whoever hears them asked for another server.
    public static func connectJumpHost(_ hop: ConnectOptions, prompter: Prompter = NonInteractivePrompter(),
                                       cancel: Cancellation? = nil) throws(SSHError) -> SSHSession {
        var lastStage: ConnectStage?
        do throws(SSHError) {
            return try connect(hop, prompter: prompter, cancel: cancel, onStage: { lastStage = $0 })
        } catch {
            // Through jumps of its own, `connect` named the hop already.
            guard hop.jumps.isEmpty else { throw error }
            throw JumpChain.named(error, hop: hop, via: nil, stage: lastStage)
        }
    }

    /// `loginMethods` for a server reached through a relay the caller keeps (a bastion's session shared by a
    /// fleet's check before its password): connects over a channel of `relay`, verifies the host key, asks the
    /// login methods, leaves. `options.jumps` are not used. Errors name the server and the relayed one.
    public static func loginMethods(_ options: ConnectOptions, through relay: ChannelRelay,
                                    cancel: Cancellation? = nil) throws(SSHError) -> [String]? {
        var bare = options
        bare.jumps = []
        let prompter = NonInteractivePrompter()
        let transport = try JumpChain.channel(through: relay, upstream: [relay], to: bare, cancel: cancel)
        do throws(SSHError) {
            return try allowedMethods(bare, prompter: prompter, cancel: cancel, transport: transport)
        } catch {
            throw JumpChain.named(error, hop: bare, via: relay.name, stage: nil)
        }
    }
}
