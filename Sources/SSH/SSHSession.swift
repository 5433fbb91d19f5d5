import CLibSSH2
import Foundation
import Synchronization

/// One authenticated SSH connection. It owns the libssh2 session and its socket, frees both in `deinit`, and is
/// safe to share between threads: libssh2 allows one thread at a time per session, so the session lives in a
/// `SessionHandle` inside `state`, a `Mutex`, and every libssh2 call on it runs inside `state.withLock`. Any thread
/// may hold the lock (libssh2 asks for one at a time, not always the same one). Commands run on channels of this one
/// session, so a TUI keeps one session per server for many commands.
public final class SSHSession: Sendable {
    /// The libssh2 session, reachable only with the lock held.
    let state: Mutex<SessionHandle>
    /// The socket, for polling beside other descriptors without the lock (`ShellChannel.wait`); libssh2 calls on it
    /// go through `state`.
    let fd: Int32
    /// The host, port and user this session is logged in as.
    public let host: String
    public let port: Int
    public let user: String
    /// The address actually reached (`127.0.0.1`, `::1`, …).
    public let address: String
    /// The server's identification line (`SSH-2.0-OpenSSH_9.2p1 …`).
    public let serverBanner: String
    /// The server's host key, verified against known_hosts before authentication.
    public let hostKey: HostKey
    /// The key exchange, host key algorithm, ciphers and MACs agreed in the handshake.
    public let negotiated: NegotiatedAlgorithms
    /// The identity that logged in: which key (file or agent, with its fingerprint), a password, keyboard-interactive.
    /// Front ends show it on the session header and remember `loginIdentity.preferred` for the next connection.
    public let loginIdentity: LoginIdentity
    /// The method that logged in (`loginIdentity` without the fingerprint).
    public var loginMethod: LoginMethod { loginIdentity.method }
    /// The server's pre-login banner (sshd's `Banner`), as sent; nil when it sent none. Sanitise before printing.
    public let loginBanner: String?
    /// The method that logged in as text (`publickey (/root/.ssh/id_ed25519)`, `password`, …), for logs.
    public var authenticatedWith: String { loginMethod.description }
    let keepaliveInterval: Int
    /// The jump hosts this session runs through (their sessions and relays), torn down after it; nil when direct.
    let chain: JumpChain?
    /// The names of the jump hosts passed through, nearest first (empty for a direct connection).
    public let jumpHosts: [String]

    /// Connects, verifies the host key, then authenticates — or throws an `SSHError` saying what failed. With
    /// `options.jumps`, each jump host is connected and logged in first (each with its own options and host-key
    /// check), and the session runs over a channel of the last one; errors then name the hop. `onStage` hears every
    /// hop's stages, `onHopStage` the same with the hop each belongs to.
    public static func connect(_ options: ConnectOptions, prompter: Prompter = NonInteractivePrompter(),
                               cancel: Cancellation? = nil,
                               onStage: (ConnectStage) -> Void = { _ in },
                               onHopStage: (HopStage) -> Void = { _ in }) throws(SSHError) -> SSHSession {
        let hops = JumpChain.hops(of: options)
        if hops.isEmpty {
            return try login(options, prompter: prompter, cancel: cancel, transport: .direct, chain: nil,
                             onStage: onStage)
        }
        let (chain, transport) = try JumpChain.reach(options, hops: hops, prompter: prompter, cancel: cancel,
                                                     onStage: onStage, onHopStage: onHopStage)
        let name = JumpChain.shortName(options)
        do throws(SSHError) {
            return try login(options, prompter: prompter, cancel: cancel, transport: transport, chain: chain,
                             onStage: { stage in
                onStage(stage)
                onHopStage(HopStage(hop: hops.count, hops: hops.count + 1, name: name, stage: stage))
            })
        } catch {
            chain.teardown()
            throw JumpChain.named(error, hop: options, via: hops.last.map(JumpChain.shortName), stage: nil)
        }
    }

    /// Connects to `options`' host and port through a relay the caller keeps (a jump host's session shared by many
    /// targets: a fleet behind one bastion logs in to it once): a channel of the relay carries this session. The
    /// session does not own the relay; `options.jumps` are not used. Errors name the server and the relayed one.
    public static func connect(_ options: ConnectOptions, through relay: ChannelRelay,
                               prompter: Prompter = NonInteractivePrompter(), cancel: Cancellation? = nil,
                               onStage: (ConnectStage) -> Void = { _ in }) throws(SSHError) -> SSHSession {
        var bare = options
        bare.jumps = []
        onStage(.connecting(address: "\(ChannelOpenFailure.target(host: options.host, port: options.port)) "
                            + "through \(relay.name)"))
        let transport = try JumpChain.channel(through: relay, upstream: [relay], to: bare, cancel: cancel)
        do throws(SSHError) {
            return try login(bare, prompter: prompter, cancel: cancel, transport: transport, chain: nil,
                             onStage: onStage)
        } catch {
            throw JumpChain.named(error, hop: bare, via: relay.name, stage: nil)
        }
    }

    /// Opens (directly or over `transport`), verifies the host key and logs in.
    static func login(_ options: ConnectOptions, prompter: Prompter, cancel: Cancellation?,
                              transport: Transport, chain: JumpChain?,
                              onStage: (ConnectStage) -> Void) throws(SSHError) -> SSHSession {
        let opened = try open(options, prompter: prompter, cancel: cancel, transport: transport, onStage: onStage)
        let raw = opened.raw
        do throws(SSHError) {
            let identity = try Authenticator(io: opened.io, options: options, prompter: prompter,
                                           context: opened.context).authenticate(onStage: onStage)
            if options.keepaliveInterval > 0 {
                libssh2_keepalive_config(raw, 1, UInt32(options.keepaliveInterval))
                // A network that went away leaves what eSSH sends (keepalives at least) unacknowledged: the kernel
                // gives up after as long as OpenSSH's ServerAliveCountMax 3 would wait, and every later wait or
                // keepalive finds the connection gone.
                var limit = UInt32(min(options.keepaliveInterval * 4, 3600) * 1000)
                setsockopt(opened.fd, Int32(IPPROTO_TCP), TCP_USER_TIMEOUT, &limit,
                           socklen_t(MemoryLayout<UInt32>.size))
            }
            let loginBanner = Authenticator.banner(raw)
            // The libssh2 session moves into the new session's lock here. Region checking counts it as shared with
            // the prompter and the cancel pipe, because the Authenticator held them side by side, but only this
            // thread has used it, nothing but the handle keeps it, and the context's prompt closure is gone.
            nonisolated(unsafe) let handle = SessionHandle(raw: raw, fd: opened.fd, host: options.host,
                                                           keepaliveInterval: options.keepaliveInterval,
                                                           context: opened.context)
            return SSHSession(handle: handle, options: options, address: opened.address, banner: opened.banner,
                              hostKey: opened.key, negotiated: opened.negotiated, loginIdentity: identity,
                              loginBanner: loginBanner, chain: chain)
        } catch {
            libssh2_session_free(raw)
            close(opened.fd)
            throw error
        }
    }

    /// Connects and verifies the host key as `connect` does, asks which login methods the server allows
    /// `options.user`, and says goodbye without logging in. Nothing is asked (an unknown key is refused unless the
    /// policy is accept-new, which saves it as `connect` would). A fleet asks for a password only when a server
    /// whose key is trusted takes one. Returns nil when the server lets the user in without any method. Jump hosts
    /// are connected and logged in as `connect` does (without asking anything), then closed again.
    public static func loginMethods(_ options: ConnectOptions, cancel: Cancellation? = nil) throws(SSHError)
        -> [String]?
    {
        let prompter = NonInteractivePrompter()
        let hops = JumpChain.hops(of: options)
        var chain: JumpChain?
        var transport = Transport.direct
        if !hops.isEmpty {
            (chain, transport) = try JumpChain.reach(options, hops: hops, prompter: prompter, cancel: cancel,
                                                     onStage: { _ in }, onHopStage: { _ in })
        }
        defer { chain?.teardown() }
        do throws(SSHError) {
            return try allowedMethods(options, prompter: prompter, cancel: cancel, transport: transport)
        } catch {
            guard let via = hops.last.map(JumpChain.shortName) else { throw error }
            throw JumpChain.named(error, hop: options, via: via, stage: nil)
        }
    }

    /// Opens over `transport`, verifies the host key, asks the login methods and leaves (`loginMethods`).
    static func allowedMethods(_ options: ConnectOptions, prompter: Prompter, cancel: Cancellation?,
                               transport: Transport) throws(SSHError) -> [String]? {
        let opened = try open(options, prompter: prompter, cancel: cancel, transport: transport, onStage: { _ in })
        var handle = SessionHandle(raw: opened.raw, fd: opened.fd, host: options.host, keepaliveInterval: 0,
                                   context: opened.context)
        defer { handle.shutdown() }
        return try Authenticator(io: opened.io, options: options, prompter: prompter, context: opened.context)
            .allowedMethods()
    }

    /// How the socket of a session is obtained.
    enum Transport {
        /// Resolve `host` and connect over TCP.
        case direct
        /// A connected socket given (a socketpair whose other end a `ChannelRelay` joins to a jump host's channel),
        /// owned from then on; `address` for messages; `upstreamLoss` says why the hops before were lost, if so.
        case socket(fd: Int32, address: String, upstreamLoss: @Sendable () -> String?)
    }

    /// A connection up to the login: the handshake done and the server's host key verified.
    private struct Opened {
        let raw: OpaquePointer
        let fd: Int32
        let address: String
        let io: SessionIO
        let context: SessionContext
        let key: HostKey
        let negotiated: NegotiatedAlgorithms
        let banner: String
    }

    /// Resolves, connects, shakes hands and verifies the host key; on failure frees what it made and throws.
    private static func open(_ options: ConnectOptions, prompter: Prompter, cancel: Cancellation?,
                             transport: Transport, onStage: (ConnectStage) -> Void) throws(SSHError) -> Opened {
        let fd: Int32
        let address: String
        let context = SessionContext()
        switch transport {
        case .direct:
            try SSHLibrary.ensureInitialised()
            (fd, address) = try SocketConnector.connect(host: options.host, port: options.port,
                                                        timeout: options.connectTimeout, cancel: cancel,
                                                        onStage: onStage)
        case .socket(let socket, let text, let upstreamLoss):
            (fd, address) = (socket, text)
            context.upstreamLoss = upstreamLoss
        }
        var knownHosts: KnownHosts
        do throws(SSHError) {
            knownHosts = try KnownHosts(userFile: options.knownHostsFile, globalFiles: options.globalKnownHostsFiles)
        } catch {
            close(fd)
            throw error
        }
        guard let raw = libssh2_session_init_ex(nil, nil, nil, Unmanaged.passUnretained(context).toOpaque()) else {
            close(fd)
            throw SSHError(.library, "libssh2_session_init_ex returned NULL", "The SSH library could not start a session.")
        }
        let io = SessionIO(raw: raw, fd: fd, cancel: cancel, timeout: options.connectTimeout)
        do throws(SSHError) {
            libssh2_session_set_blocking(raw, 0)
            let offered = setPreferences(raw, options.algorithms, knownTypes: acceptedTypes(options, knownHosts))
            onStage(.handshaking)
            try IdentificationWait.skipPreamble(fd: fd, host: options.host, port: options.port,
                                                timeout: options.connectTimeout, cancel: cancel)
            let rc = try io.call("the handshake", allowNegative: true) { libssh2_session_handshake(raw, fd) }
            if rc < 0 {
                throw handshakeFailure(io.error("the handshake", rc), rc: rc, offered: offered, options: options,
                                       address: address, cancel: cancel)
            }
            let negotiated = NegotiatedAlgorithms.read(raw)
            onStage(.verifyingHostKey)
            let key = try serverHostKey(raw)
            try verifyHostKey(key, options: options, knownHosts: &knownHosts, prompter: prompter)
            let banner = libssh2_session_banner_get(raw).map { String(cString: $0) } ?? ""
            return Opened(raw: raw, fd: fd, address: address, io: io, context: context, key: key,
                          negotiated: negotiated, banner: banner)
        } catch {
            libssh2_session_free(raw)
            close(fd)
            throw error
        }
    }

    private init(handle: sending SessionHandle, options: ConnectOptions, address: String, banner: String,
                 hostKey: HostKey, negotiated: NegotiatedAlgorithms, loginIdentity: LoginIdentity, loginBanner: String?,
                 chain: JumpChain?) {
        self.chain = chain
        self.jumpHosts = chain?.names ?? []
        self.fd = handle.fd
        self.state = Mutex(handle)
        self.host = options.host
        self.port = options.port
        self.user = options.user
        self.address = address
        self.serverBanner = banner
        self.hostKey = hostKey
        self.negotiated = negotiated
        self.loginIdentity = loginIdentity
        self.loginBanner = loginBanner
        self.keepaliveInterval = options.keepaliveInterval
    }

    deinit {
        state.withLock { $0.shutdown() }
        chain?.teardown()
    }

    /// Says goodbye to the server and closes the socket, then closes the jump hosts' sessions, nearest to the
    /// server first. Later calls fail with `disconnected`.
    public func disconnect() {
        state.withLock { $0.shutdown() }
        chain?.teardown()
    }

    /// False once `disconnect()` ran.
    public var isConnected: Bool {
        state.withLock { !$0.isClosed }
    }

    // MARK: - Connection set-up

    private static func serverHostKey(_ raw: OpaquePointer) throws(SSHError) -> HostKey {
        var len = 0
        var type: Int32 = 0
        guard let p = libssh2_session_hostkey(raw, &len, &type), len > 0 else {
            throw SSHError(.protocolError, "no host key", "The server sent no host key.")
        }
        let bytes = [UInt8](UnsafeRawBufferPointer(start: p, count: len))
        guard let key = HostKey(blob: bytes) else {
            throw SSHError(.protocolError, "unreadable host key", "The server's host key cannot be read.")
        }
        return key
    }

    /// The key types whose keys this hop would accept without a question, to be offered first: the pinned types
    /// when there are pins (known_hosts then decides nothing but revocation), else those known_hosts holds.
    private static func acceptedTypes(_ options: ConnectOptions, _ knownHosts: KnownHosts) -> [String] {
        guard !options.pinnedHostKeys.isEmpty else {
            return knownHosts.knownTypes(host: options.host, port: options.port)
        }
        var types: [String] = []
        for pin in options.pinnedHostKeys where !types.contains(pin.type) { types.append(pin.type) }
        return types
    }

    private static func verifyHostKey(_ key: HostKey, options: ConnectOptions, knownHosts: inout KnownHosts,
                                      prompter: Prompter) throws(SSHError) {
        let name = KnownHosts.lookupName(host: options.host, port: options.port)
        let verdict = knownHosts.verify(host: options.host, port: options.port, key: key)
        // Pins replace known_hosts' trust, not its revocations: a key the user marked @revoked stays refused even
        // when the team pinned it (the switch below refuses it).
        if !options.pinnedHostKeys.isEmpty && !verdict.isRevoked {
            if let refusal = PinnedHostKey.refusal(of: key, pins: options.pinnedHostKeys, host: options.host,
                                                   port: options.port, serverName: options.name) {
                throw refusal
            }
            return
        }
        switch verdict {
        case .match:
            return
        case .revoked(let entry):
            throw SSHError(.hostKeyRevoked, "\(entry.file):\(entry.line)",
                           "The \(key.type) host key of \(name) (\(key.fingerprint)) is marked @revoked in "
                               + "\(entry.file) line \(entry.line). Refusing to connect.")
        case .changed(let known):
            let lines = known.map { "  \($0.file) line \($0.line): \($0.key.type) \($0.key.fingerprint)" }
                .joined(separator: "\n")
            throw SSHError(.hostKeyChanged, "host key mismatch", """
                WARNING: the host key of \(name) has CHANGED. Someone may be intercepting the connection \
                (man-in-the-middle), or the server was reinstalled. Refusing to connect.
                The server now sends: \(key.type) \(key.fingerprint)
                known_hosts expects:
                \(lines)
                If you know the change is legitimate, remove the old line: ssh-keygen -R '\(name)' \
                -f \(known[0].file)   (or delete \(known[0].file) line \(known[0].line)), then connect again.
                """)
        case .unknown(let others):
            let question = HostKeyQuestion(host: options.host, port: options.port, key: key, otherKnownTypes: others,
                                           sameKeyElsewhere: knownHosts.otherNames(for: key, host: options.host,
                                                                                   port: options.port))
            let decision: HostKeyDecision
            switch options.hostKeyPolicy {
            case .strict:
                let aka = question.sameKeyNames.isEmpty ? ""
                    : " The same key is already known as \(HostKeyQuestion.shortList(question.sameKeyNames))"
                        + " (in \(Set(question.sameKeyElsewhere.map(\.file)).sorted().joined(separator: ", ")))."
                throw SSHError(.hostKeyUnknown, "host key not in \(options.knownHostsFile)", """
                    The host key of \(name) is not known (\(key.type) \(key.fingerprint)) and the host key policy \
                    is strict.\(aka)
                    """, remedy: .confirmHostKey(knownHostsFile: options.knownHostsFile))
            case .acceptNew:
                decision = .acceptAndSave
            case .ask:
                decision = prompter.confirmHostKey(question)
            }
            switch decision {
            case .reject:
                throw SSHError(.hostKeyRejected, "", "Host key of \(name) not accepted; nothing was sent to the server.")
            case .acceptOnce:
                return
            case .acceptAndSave:
                try knownHosts.append(host: options.host, port: options.port, key: key, hashed: options.hashKnownHosts)
            }
        }
    }
}

extension KnownHosts.Verdict {
    /// The key is marked `@revoked`: refused whatever else trusts it.
    fileprivate var isRevoked: Bool {
        if case .revoked = self { return true }
        return false
    }
}
