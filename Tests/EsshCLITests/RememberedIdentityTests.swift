import Foundation
import Testing
import TestSupport

/// The key that logged in to a saved server is remembered and offered first next time (issue 17 §2): an agent
/// holding four keys, of which only the last is authorized, against an sshd with `MaxAuthTries 2` that disconnects
/// a client offering them in the agent's order.
@Suite(.serialized) struct RememberedIdentityTests {
    /// Four fresh ed25519 keys (`agent-key-1` … `-4`) in a private ssh-agent; `strict` (MaxAuthTries 2) and `lenient`
    /// (MaxAuthTries 6) sshds authorizing only the fourth; a scratch `$HOME` without keys and a database.
    final class Fixture {
        let s: TestServers
        let dir: TempDir
        let home: TestUserFolder
        let agent: KeyedAgent
        var sock: String { agent.socket }
        let strict: ExtraSSHD
        let lenient: ExtraSSHD
        var keys: [String] { agent.keys }

        init() throws {
            s = try TestServers.require()
            let dir = try TempDir()
            self.dir = dir
            home = try TestUserFolder(servers: s)
            agent = try KeyedAgent(in: dir)
            try home.write(try agent.publicKey(4), to: "authorized_keys", servers: s)
            strict = try ExtraSSHD(servers: s, authorizedKeys: home.file("authorized_keys"), maxAuthTries: 2)
            lenient = try ExtraSSHD(servers: s, authorizedKeys: home.file("authorized_keys"), maxAuthTries: 6)
            try FileManager.default.createDirectory(atPath: dir.file("home"), withIntermediateDirectories: true)
        }

        deinit {
            strict.stop()
            lenient.stop()
            agent.stop()
            home.cleanup()
            dir.cleanup()
        }

        /// `essh ARGS` with the scratch `$HOME` and database and this agent, no terminal.
        func essh(_ args: [String]) throws -> RunResult {
            try Spawn.run(Binary.essh, args, environment: [
                "HOME": dir.file("home"), "ESSH_DB": dir.file("essh.db"), "SSH_AUTH_SOCK": sock, "NO_COLOR": "1",
            ], timeout: 60)
        }

        /// Saves `name` on `sshd`, logging in with the agent.
        func add(_ name: String, on sshd: ExtraSSHD) throws {
            let r = try essh(["servers", "add", name, "--host", sshd.host, "--port", String(sshd.port),
                              "--user", s.user, "--auth", "agent"])
            #expect(r.status == 0, "\(r.err)")
        }

        /// `essh exec NAME id -un` with `extra` options.
        func exec(_ name: String, _ extra: [String] = []) throws -> RunResult {
            try essh(["exec", "--known-hosts", dir.file("known_hosts"), "--host-key-policy", "accept-new"] + extra
                     + [name, "--", "id -un"])
        }

        /// `ssh-keygen -lf`'s fingerprint of key `n` (1…4).
        func fingerprint(_ n: Int) throws -> String {
            let listed = try Binary.run("/usr/bin/ssh-keygen", ["-lf", keys[n - 1] + ".pub"])
            return String(listed.out.split(separator: " ")[1])
        }
    }

    @Test func theAgentKeyThatLoggedInIsOfferedFirstNextTime() throws {
        let f = try Fixture()
        // Without a remembered key the strict server disconnects after the agent's first two keys.
        try f.add("fresh", on: f.strict)
        let refused = try f.exec("fresh")
        #expect(refused.status == 255, "\(refused.out) \(refused.err)")
        #expect(try f.essh(["servers", "show", "fresh"]).out.contains("last login") == false)

        // The lenient server lets the agent try all four: the fourth logs in and is remembered.
        try f.add("many", on: f.lenient)
        let first = try f.exec("many")
        #expect(first.status == 0 && first.out == f.s.user + "\n", "\(first.err)")
        let fingerprint = try f.fingerprint(4)
        let shown = try f.essh(["servers", "show", "many"])
        #expect(shown.out.contains("last login      agent:\(fingerprint)"), "\(shown.out)")
        let json = try f.essh(["servers", "show", "many", "--json"])
        #expect(json.out.contains("\"last_identity\" : \"agent:\(fingerprint)\""), "\(json.out)")

        // Moved to the strict server, it logs in at once: the remembered key goes first. -v says which key.
        #expect(try f.essh(["servers", "edit", "many", "--port", String(f.strict.port)]).status == 0)
        let second = try f.exec("many", ["-v"])
        #expect(second.status == 0 && second.out == f.s.user + "\n", "\(second.err)")
        #expect(second.err.contains("logged in with agent key agent-key-4 (\(fingerprint))"), "\(second.err)")
    }

    @Test func aFleetRunRemembersEachServersKey() throws {
        let f = try Fixture()
        for name in ["fl1", "fl2"] {
            let r = try f.essh(["servers", "add", name, "--host", f.lenient.host, "--port", String(f.lenient.port),
                                "--user", f.s.user, "--auth", "agent", "--tag", "rem"])
            #expect(r.status == 0, "\(r.err)")
        }
        let run = try f.essh(["exec", "--tag", "rem", "--known-hosts", f.dir.file("known_hosts"), "--host-key-policy",
                              "accept-new", "--", "id -un"])
        #expect(run.status == 0, "\(run.out) \(run.err)")
        let fingerprint = try f.fingerprint(4)
        for name in ["fl1", "fl2"] {
            let shown = try f.essh(["servers", "show", name])
            #expect(shown.out.contains("last login      agent:\(fingerprint)"), "\(shown.out)")
        }
        // Both moved to the strict server: the fleet logs in to each at once.
        for name in ["fl1", "fl2"] {
            #expect(try f.essh(["servers", "edit", name, "--port", String(f.strict.port)]).status == 0)
        }
        let again = try f.essh(["exec", "--tag", "rem", "--known-hosts", f.dir.file("known_hosts"),
                                "--host-key-policy", "accept-new", "--", "id -un"])
        #expect(again.status == 0, "\(again.out) \(again.err)")
    }

    @Test func aKeyFileThatLoggedInIsRememberedAndTriedBeforeTheAgent() throws {
        let f = try Fixture()
        try f.add("kf", on: f.strict)
        let first = try f.exec("kf", ["-i", f.keys[3]])
        #expect(first.status == 0, "\(first.err)")
        let shown = try f.essh(["servers", "show", "kf"])
        #expect(shown.out.contains("last login      file:\(f.keys[3])"), "\(shown.out)")
        let second = try f.exec("kf", ["-v"])
        #expect(second.status == 0 && second.out == f.s.user + "\n", "\(second.err)")
        #expect(second.err.contains("logged in with key \(f.keys[3]) (\(try f.fingerprint(4)))"), "\(second.err)")
    }

    @Test func aRememberedKeyFileThatIsGoneIsIgnored() throws {
        let f = try Fixture()
        try f.add("gone", on: f.lenient)
        #expect(try f.exec("gone", ["-i", f.keys[3]]).status == 0)
        let moved = f.dir.file("moved")
        #expect(rename(f.keys[3], moved) == 0)
        // The agent still holds key 4: the login goes on through it and that is remembered instead.
        let r = try f.exec("gone")
        #expect(r.status == 0, "\(r.err)")
        let shown = try f.essh(["servers", "show", "gone"])
        #expect(shown.out.contains("last login      agent:\(try f.fingerprint(4))"), "\(shown.out)")
    }
}
