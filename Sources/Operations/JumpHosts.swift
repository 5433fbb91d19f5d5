import Basics
import Inventory
import SSH

/// The one rule turning a jump chain (`JumpList`'s text: `bastion`, `admin@gw:2222,b2`) into the session options of
/// each hop, for the command line, the interface and fleet runs alike. Each hop is what the name means anywhere in
/// eSSH (`ConnectionProfile.resolve`): a saved server (its host, port, user, key, algorithm lists, and its own jump
/// hosts before it, as OpenSSH applies a jump host's own ProxyJump), else a Host of ~/.ssh/config (its ProxyJump
/// too), else the host typed with the defaults. Every hop uses the destination's known_hosts file and connect
/// timeout; the caller sets one host-key policy on all (`ConnectOptions.setHostKeyPolicy`).
public enum JumpHosts {
    /// The hops of `text` as options, nearest first, each with its own jump hosts in `jumps`. `owner` is the profile
    /// whose chain it is and `options` its options so far (for the problem); `path` the servers whose chains led
    /// here, `owner` last; `hops` counts the hops of the whole chain.
    static func expand(_ text: String, of owner: ConnectionProfile, options: ConnectOptions,
                       overrides: ConnectionProfile.Overrides, context: ConnectionProfile.Context, path: [String],
                       hops: inout Int) throws(ConnectionProblem) -> [ConnectOptions] {
        func refuse(_ sentence: String) -> ConnectionProblem { ConnectionProblem(.jumpChain, sentence, options) }
        let listed: [JumpList.Hop]
        switch JumpList.hops(text) {
        case .success(let found): listed = found
        case .failure(let problem): throw refuse(problem.message)
        }
        let hopOverrides = ConnectionProfile.Overrides(knownHostsFile: overrides.knownHostsFile,
                                                       connectTimeout: overrides.connectTimeout)
        var result: [ConnectOptions] = []
        for hop in listed {
            let profile: ConnectionProfile
            do {
                profile = try ConnectionProfile.resolve(hop.text, saved: { name in try context.savedServer?(name) },
                                                        context: context, sshConfig: context.sshConfig).profile
            } catch {
                throw refuse("The jump host \(hop.text) (of \(path.last ?? owner.host)) cannot be used: "
                             + UserFacing.sentence(error))
            }
            let key = profile.chainName ?? hop.text
            if path.contains(key) {
                let loop = (path.drop { $0 != key } + [key]).joined(separator: " → ")
                throw refuse("The jump hosts loop: \(loop). Each server must be reached without passing through "
                             + "itself; change the jump hosts of one of them.")
            }
            hops += 1
            if hops > JumpList.maxHops {
                throw refuse("The jump chain of \(path.first ?? owner.host) has more than \(JumpList.maxHops) hops "
                             + "(jump hosts' own jump hosts counted); eSSH goes through at most \(JumpList.maxHops).")
            }
            var hopOptions = try profile.options(hopOverrides, context: context, path: path, hops: &hops)
            if hopOptions.name == nil { hopOptions.name = profile.chainName }
            result.append(hopOptions)
        }
        return result
    }
}

extension ConnectOptions {
    /// Sets `policy` on this server and on every jump host before it: each hop's key is checked as the
    /// destination's is.
    public mutating func setHostKeyPolicy(_ policy: HostKeyPolicy) {
        hostKeyPolicy = policy
        for index in jumps.indices { jumps[index].setHostKeyPolicy(policy) }
    }

    /// Sets the seconds between keepalives on this server and on every jump host before it.
    public mutating func setKeepalive(_ seconds: Int) {
        keepaliveInterval = seconds
        for index in jumps.indices { jumps[index].setKeepalive(seconds) }
    }

    /// The jump hosts passed through, nearest first, as messages name them (a saved server's or ssh_config's name,
    /// else the host): a hop's own jump hosts before it. Empty for a direct connection.
    public var hopNames: [String] {
        jumps.flatMap { $0.hopNames + [$0.name ?? $0.host] }
    }
}

extension JumpHosts {
    /// Why `chain` cannot be saved as the jump hosts of the server named `name`: its syntax (`JumpList`, through
    /// `ServerValidation`), or a loop through saved servers (`name` → … → `name`), found by following the chains of
    /// the saved servers its hops name. The check `servers add/edit` and the form make before saving; connecting
    /// checks again, ssh_config's hosts too (`expand`). Nil when it may be saved.
    public static func problem(name: String, chain: String, saved: (String) -> Server?) -> String? {
        if let problem = ServerValidation.jumpProblem(chain, name: name) { return problem.message }
        var seen = Set<String>()
        func loop(from text: String, path: [String]) -> [String]? {
            guard case .success(let hops) = JumpList.hops(text) else { return nil }
            for hop in hops {
                if hop.text == name { return path + [name] }
                guard !path.contains(hop.text), seen.insert(hop.text).inserted, let server = saved(hop.text) else {
                    continue
                }
                if let found = loop(from: server.jump, path: path + [hop.text]) { return found }
            }
            return nil
        }
        guard let found = loop(from: chain, path: [name]) else { return nil }
        return "The jump hosts would loop: \(found.joined(separator: " → ")). Each server must be reached without "
            + "passing through itself; name another jump host."
    }
}
