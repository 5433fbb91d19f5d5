import Foundation
import Inventory
import Operations
import SSH
import Synchronization
import Testing

/// No ssh_config at all: hops are saved servers or typed hosts.
private struct NoFiles: SSHConfigSource {
    func paths(matching pattern: String) -> [String] { [] }
    func read(_ path: String) throws -> String { throw CocoaError(.fileReadNoSuchFile) }
}

/// A jump chain as written, expanded into each hop's options: saved servers, their own chains first, typed hosts;
/// loops, too many hops and bad hops refused with a sentence.
@Suite struct JumpHostsTests {
    let servers = [
        Server(name: "bastion", host: "10.0.0.1", port: 2222, user: "gate", auth: .agent),
        Server(name: "inner", host: "10.1.0.1", user: "ops", auth: .password, jump: "bastion"),
        Server(name: "db1", host: "10.2.0.1", auth: .agent, jump: "inner"),
        Server(name: "a", host: "10.3.0.1", auth: .agent, jump: "b"),
        Server(name: "b", host: "10.3.0.2", auth: .agent, jump: "a"),
        Server(name: "self", host: "10.3.0.3", auth: .agent, jump: "x,self"),
    ]

    var context: ConnectionProfile.Context {
        let servers = self.servers
        return ConnectionProfile.Context(
            environment: ["HOME": "/home/ann", "ESSH_KNOWN_HOSTS": "/kh"], localUser: "ann",
            savedServer: { name in servers.first { $0.name == name } },
            sshConfig: SSHConfigReader(home: "/home/ann", localUser: "ann", source: NoFiles()))
    }

    func options(_ name: String, jump: String? = nil) throws(ConnectionProblem) -> ConnectOptions {
        let server = servers.first { $0.name == name } ?? Server(name: name, host: name, auth: .agent)
        return try ConnectionProfile(server: server).options(.init(jump: jump), context: context)
    }

    func refusal(_ name: String, jump: String? = nil) -> ConnectionProblem? {
        do throws(ConnectionProblem) {
            _ = try options(name, jump: jump)
            return nil
        } catch {
            return error
        }
    }

    @Test func aSavedHopGivesItsHostPortUserAndNameAndTheDestinationsKnownHosts() throws {
        let o = try options("inner")
        #expect(o.name == "inner" && o.jumps.count == 1)
        let hop = o.jumps[0]
        #expect(hop.host == "10.0.0.1" && hop.port == 2222 && hop.user == "gate" && hop.name == "bastion")
        #expect(hop.knownHostsFile == "/kh" && hop.useAgent)
        #expect(!o.useAgent, "the destination keeps its own login (password)")
    }

    @Test func aHopsOwnChainComesFirstAsOpenSSHAppliesAJumpHostsProxyJump() throws {
        let o = try options("db1")
        #expect(o.hopNames == ["bastion", "inner"])
        #expect(o.jumps.count == 1 && o.jumps[0].jumps.map(\.name) == ["bastion"])
    }

    @Test func typedHopsTakeTheirUserAndPortAndTheDefaults() throws {
        let o = try options("plain", jump: "root@192.0.2.9:2200,[2001:db8::1]")
        #expect(o.jumps.map(\.host) == ["192.0.2.9", "2001:db8::1"])
        #expect(o.jumps.map(\.port) == [2200, 22] && o.jumps.map(\.user) == ["root", "ann"])
        #expect(o.jumps.map(\.name) == [nil, nil], "messages name a typed hop by its host")
        #expect(o.name == "plain" && o.hopNames == ["192.0.2.9", "2001:db8::1"])
    }

    @Test func dashJOverridesTheSavedChainAndNoneForcesDirect() throws {
        #expect(try options("db1", jump: "none").jumps.isEmpty)
        #expect(try options("db1", jump: "bastion").hopNames == ["bastion"])
    }

    @Test func setHostKeyPolicyAndKeepaliveReachEveryHop() throws {
        var o = try options("db1")
        o.setHostKeyPolicy(.acceptNew)
        o.setKeepalive(7)
        #expect(o.hostKeyPolicy == .acceptNew && o.jumps[0].hostKeyPolicy == .acceptNew)
        #expect(o.jumps[0].jumps[0].hostKeyPolicy == .acceptNew && o.jumps[0].jumps[0].keepaliveInterval == 7)
    }

    @Test func aLoopIsRefusedNamingItsServers() {
        let problem = refusal("a")
        #expect(problem?.kind == .jumpChain)
        #expect(problem?.message.hasPrefix("The jump hosts loop: a → b → a.") == true)
        #expect(refusal("x", jump: "self")?.message.hasPrefix("The jump hosts loop: x → self → x.") == true)
    }

    @Test func moreThanEightHopsAreRefusedTheirOwnHopsCounted() {
        #expect(refusal("p", jump: (1...9).map { "h\($0)" }.joined(separator: ","))?.message
                == "The jump chain 'h1,h2,h3,h4,h5,h6,h7,h8,h9' has 9 hops; eSSH goes through at most 8.")
        // 6 typed hops, db1 and its own two (inner, bastion): nine in all.
        let problem = refusal("p", jump: (1...6).map { "h\($0)" }.joined(separator: ",") + ",db1")
        #expect(problem?.message.hasPrefix("The jump chain of p has more than 8 hops") == true)
        #expect(refusal("p", jump: (1...5).map { "h\($0)" }.joined(separator: ",") + ",db1") == nil)
    }

    @Test func anEmptyHopABadPortAndNoneInsideAChainAreRefused() {
        #expect(refusal("p", jump: "bastion,,b2")?.message
                == "Hop 2 of the jump chain 'bastion,,b2' is empty: separate the hops with single commas (bastion,gw2) "
                + "and end with a hop, not a comma.")
        #expect(refusal("p", jump: "gw:99999")?.message
                == "The jump host, 'gw:99999', is not a jump host: the port “99999” is not a number from 1 to 65535. "
                + "Give a saved server's name or [user@]host[:port].")
        #expect(refusal("p", jump: "a,none")?.message.contains("none stands alone") == true)
    }

    @Test func savingChecksSyntaxItselfAndLoopsThroughSavedServers() {
        let saved = { (name: String) in servers.first { $0.name == name } }
        #expect(JumpHosts.problem(name: "new", chain: "db1", saved: saved) == nil)
        #expect(JumpHosts.problem(name: "bastion", chain: "db1", saved: saved)
                == "The jump hosts would loop: bastion → db1 → inner → bastion. Each server must be reached without "
                + "passing through itself; name another jump host.")
        #expect(JumpHosts.problem(name: "new", chain: "new", saved: saved)?.contains("its own jump host") == true)
        #expect(JumpHosts.problem(name: "new", chain: "a,", saved: saved)?.contains("is empty") == true)
        #expect(JumpHosts.problem(name: "new", chain: "none", saved: saved) == nil)
    }
}

/// A check's jump chains for many saved servers: each distinct chain looked up once, the same hops as one at a time,
/// and a server inside the chain it would share still refused (its loop), not handed the shared chain.
@Suite struct CheckJumpChainsTests {
    @Test func eachDistinctChainIsLookedUpOnce() {
        let saved = [
            Server(name: "bastion", host: "10.0.0.1", port: 2222, user: "gate", auth: .agent),
            Server(name: "inner", host: "10.1.0.1", user: "ops", auth: .password, jump: "bastion"),
        ]
        let lookups = Mutex(0)
        let context = ConnectionProfile.Context(
            environment: ["HOME": "/home/ann", "ESSH_KNOWN_HOSTS": "/kh"], localUser: "ann",
            savedServer: { name in
                lookups.withLock { $0 += 1 }
                return saved.first { $0.name == name }
            },
            sshConfig: SSHConfigReader(home: "/home/ann", localUser: "ann", source: NoFiles()))
        let behind = (0..<50).map { Server(name: "db\($0)", host: "10.2.0.\($0)", auth: .agent, jump: "inner") }
        let direct = Server(name: "web", host: "10.9.0.1", auth: .agent)
        // A server named bastion behind inner: inner's chain passes through bastion, so it loops.
        let looping = Server(name: "bastion", host: "10.9.0.2", auth: .agent, jump: "inner")
        let servers = behind + [direct, looping]

        lookups.withLock { $0 = 0 }
        let one = OnlineCheck.Target.jumps(of: behind[0], context: context)
        let perChain = lookups.withLock { $0 }
        lookups.withLock { $0 = 0 }
        let all = OnlineCheck.Target.jumps(of: servers, context: context)
        let batched = lookups.withLock { $0 }

        #expect(one.map(\.name) == ["inner"] && one.first?.jumps.map(\.name) == ["bastion"])
        #expect(all.count == servers.count)
        let hops = { (chain: [ConnectOptions]) in chain.map { "\($0.name ?? "") \($0.host):\($0.port) \($0.user)" } }
        #expect(all.prefix(50).allSatisfy { hops($0) == hops(one) && hops($0.first?.jumps ?? []) == hops(one[0].jumps) })
        #expect(all[50].isEmpty, "a direct server has no chain")
        #expect(all[51].isEmpty, "the server inside its own chain is refused (checked directly), not given it")
        #expect(OnlineCheck.Target.jumps(of: looping, context: context).isEmpty)
        // 50 servers behind one chain: one lookup of it (plus the looping one resolved alone), not 50.
        #expect(batched <= 2 * perChain, "\(batched) lookups for 50 servers; one chain costs \(perChain)")
    }
}
