import Foundation
import Testing
import TestSupport

/// Jump hosts from the command line, against the harness's namespace topology: t1 is reachable only through b1,
/// t2 only through b1 then b2. Arriving at t1 or t2 at all proves the jump.
@Suite struct JumpHostCLITests {
    /// A folder with a database and a known_hosts holding the topology's keys.
    private struct Setup {
        let s: TestServers
        let dir: TempDir
        var known: String { dir.file("known_hosts") }

        init() throws {
            s = try TestServers.require()
            dir = try TempDir()
            try FileManager.default.copyItem(atPath: s.jump.knownHosts, toPath: dir.file("known_hosts"))
        }

        func essh(_ args: [String], timeout: TimeInterval = 60) throws -> RunResult {
            try Binary.runEssh(args, environment: ["ESSH_DB": dir.file("essh.db"), "HOME": dir.path,
                                                  "ESSH_KNOWN_HOSTS": known], timeout: timeout)
        }

        /// `servers add NAME` for a topology server, logging in with the harness's key.
        func add(_ name: String, _ server: TestServers.NamespaceServer, jump: String? = nil) throws {
            let r = try essh(["servers", "add", name, "--host", server.host, "--port", "\(server.port)", "--user",
                              s.user, "--key", s.key("id_ed25519")] + (jump.map { ["--jump", $0] } ?? []))
            #expect(r.status == 0, "\(r.err)")
        }

        /// The topology saved: b1, t1 behind b1, b2 behind b1, t2 behind b2.
        func saveTopology() throws {
            try add("b1", s.jump.b1)
            try add("t1", s.jump.t1, jump: "b1")
            try add("b2", s.jump.b2, jump: "b1")
            try add("t2", s.jump.t2, jump: "b2")
        }

        func json(_ r: RunResult) -> [String: Any] {
            (try? JSONSerialization.jsonObject(with: Data(r.out.utf8))) as? [String: Any] ?? [:]
        }
    }

    @Test func aSavedServerBehindABastionAndOneTwoHopsDeepRunCommands() throws {
        let setup = try Setup()
        defer { setup.dir.cleanup() }
        let s = setup.s
        try setup.saveTopology()
        let one = try setup.essh(["exec", "t1", "--", "echo $SSH_CONNECTION"])
        #expect(one.status == 0, "\(one.err)")
        #expect(one.out.hasSuffix(" \(s.jump.t1.host) \(s.jump.t1.port)\n"), "\(one.out)")
        // t2's chain is b2's own chain (b1) first, then b2.
        let two = try setup.essh(["exec", "-v", "t2", "--", "echo $SSH_CONNECTION"])
        #expect(two.status == 0, "\(two.err)")
        #expect(two.err.contains("t2: through b1 → b2 (jump hosts)"), "-v names the hops: \(two.err)")
        #expect(two.out.hasSuffix(" \(s.jump.t2.host) 22\n"), "\(two.out)")
        let net = try setup.essh(["net", "t2", "routes", "--json"])
        #expect(net.status == 0 && net.out.contains("\"routes\""), "\(net.err)")
        // `essh t1 COMMAND`, the ssh-like entry.
        let bare = try setup.essh(["t1", "echo", "bare"])
        #expect(bare.status == 0 && bare.out == "bare\n", "\(bare.err)")
    }

    @Test func showListExportAndImportCarryTheChainAndNoneClearsIt() throws {
        let setup = try Setup()
        defer { setup.dir.cleanup() }
        try setup.saveTopology()
        let show = try setup.essh(["servers", "show", "t2"])
        #expect(show.out.contains("jump            b2\n") || show.out.contains("jump  "), "\(show.out)")
        #expect(setup.json(try setup.essh(["servers", "show", "t2", "--json"]))["jump"] as? String == "b2")
        let export = try setup.essh(["servers", "export", "--json"])
        #expect(export.status == 0)
        try export.out.write(toFile: setup.dir.file("export.json"), atomically: true, encoding: .utf8)
        let ssh = try setup.essh(["servers", "export"])
        #expect(ssh.out.contains("Host t2\n") && ssh.out.contains("    ProxyJump b2\n"), "\(ssh.out)")
        let edit = try setup.essh(["servers", "edit", "t1", "--jump", "none"])
        #expect(edit.status == 0, "\(edit.err)")
        #expect(setup.json(try setup.essh(["servers", "show", "t1", "--json"]))["jump"] as? String == "")
        // Direct, t1 cannot be reached: the chain is what made it work.
        let direct = try setup.essh(["exec", "--connect-timeout", "3", "t1", "--", "true"])
        #expect(direct.status == 255, "\(direct.err)")
        let back = try setup.essh(["servers", "import", setup.dir.file("export.json")])
        #expect(back.status == 0, "\(back.err)")
        #expect(setup.json(try setup.essh(["servers", "show", "t1", "--json"]))["jump"] as? String == "b1")
    }

    @Test func dashJOnExecNetAndTheSSHLikeEntryOverridesOrGivesTheChain() throws {
        let setup = try Setup()
        defer { setup.dir.cleanup() }
        let s = setup.s
        try setup.add("b1", s.jump.b1)
        let t1 = "\(s.user)@\(s.jump.t1.host):\(s.jump.t1.port)"
        let typed = try setup.essh(["exec", "-J", "b1", "-i", s.key("id_ed25519"), t1, "--", "echo $SSH_CONNECTION"])
        #expect(typed.status == 0, "\(typed.err)")
        #expect(typed.out.hasSuffix(" \(s.jump.t1.host) \(s.jump.t1.port)\n"))
        // Two hops written out (b2 saved without a chain of its own); a typed hop logs in with the agent and
        // ~/.ssh's keys, as with ssh -J, so it is b2's saved key that gets through here.
        try setup.add("b2", s.jump.b2)
        let t2 = "\(s.user)@\(s.jump.t2.host)"
        let two = try setup.essh(["exec", "--jump", "b1,b2", "-i", s.key("id_ed25519"), t2, "--", "echo two"])
        #expect(two.status == 0 && two.out == "two\n", "\(two.err)")
        let net = try setup.essh(["net", "-J", "b1", "-i", s.key("id_ed25519"), t1, "routes"])
        #expect(net.status == 0, "\(net.err)")
        let entry = try setup.essh(["-J", "b1", "-i", s.key("id_ed25519"), t1, "echo", "entry"])
        #expect(entry.status == 0 && entry.out == "entry\n", "\(entry.err)")
        // -J overrides a saved chain; -J none forces a direct connection (which cannot reach t1).
        try setup.add("t1", s.jump.t1, jump: "nosuchhop.invalid")
        let over = try setup.essh(["exec", "-J", "b1", "t1", "--", "echo over"])
        #expect(over.status == 0 && over.out == "over\n", "\(over.err)")
        let none = try setup.essh(["exec", "-J", "none", "--connect-timeout", "3", "t1", "--", "true"])
        #expect(none.status == 255 && !none.err.contains("nosuchhop"), "\(none.err)")
    }

    @Test func errorsNameTheHopAndBadChainsAreRefusedBeforeConnecting() throws {
        let setup = try Setup()
        defer { setup.dir.cleanup() }
        let s = setup.s
        // A bastion that refuses: its name and address in the sentence.
        let refused = try setup.essh(["exec", "-J", "\(s.jump.b1.host):\(s.jump.t1ClosedPort)", "-i",
                                      s.key("id_ed25519"), "\(s.user)@\(s.jump.t1.host)", "--", "true"])
        #expect(refused.status == 255)
        #expect(refused.err.contains(s.jump.b1.host), "\(refused.err)")
        let bad = try setup.essh(["exec", "-J", "b1,,b2", "x", "--", "true"])
        #expect(bad.status == 64 && bad.err.contains("Hop 2 of the jump chain 'b1,,b2' is empty"), "\(bad.err)")
        try setup.add("a", s.jump.b1)
        try setup.add("b", s.jump.b2, jump: "a")
        let loop = try setup.essh(["servers", "edit", "a", "--jump", "b"])
        #expect(loop.status == 2, "\(loop.err)")
        #expect(loop.err.contains("The jump hosts would loop: a → b → a."), "\(loop.err)")
        let badAdd = try setup.essh(["servers", "add", "c", "--host", "h", "--jump", "gw:99999"])
        #expect(badAdd.status == 2 && badAdd.err.contains("is not a number from 1 to 65535"), "\(badAdd.err)")
    }

    @Test func aShellThroughTheBastionInATerminal() throws {
        let setup = try Setup()
        defer { setup.dir.cleanup() }
        let s = setup.s
        try setup.add("b1", s.jump.b1)
        let t1 = "\(s.user)@\(s.jump.t1.host):\(s.jump.t1.port)"
        let essh = try EsshInTmux(arguments: "shell -J b1 -i \(s.key("id_ed25519")) \(t1)", knownHosts: .empty,
                                  environment: ["ESSH_KNOWN_HOSTS": setup.known], in: setup.dir)
        defer { essh.stop() }
        try RemoteShellScript.waitForPrompt(essh.tmux, user: s.user)
        try essh.tmux.type("echo AT-$(echo $SSH_CONNECTION | cut -d' ' -f3)")
        try essh.tmux.press("Enter")
        try essh.tmux.waitFor(text: "AT-\(s.jump.t1.host)")
        try essh.tmux.type("exit 3")
        try essh.tmux.press("Enter")
        try essh.waitForExit(3)
    }

    @Test func aHostKeyQuestionNamesTheJumpHost() throws {
        let setup = try Setup()
        defer { setup.dir.cleanup() }
        let s = setup.s
        try "".write(toFile: setup.known, atomically: true, encoding: .utf8)
        try setup.add("b1", s.jump.b1)
        let t1 = "\(s.user)@\(s.jump.t1.host):\(s.jump.t1.port)"
        let essh = try EsshInTmux(arguments: "exec -J b1 -i \(s.key("id_ed25519")) \(t1) -- echo DONE",
                                  knownHosts: .empty, environment: ["ESSH_KNOWN_HOSTS": setup.known], in: setup.dir)
        defer { essh.stop() }
        try essh.tmux.waitFor(text: "The authenticity of host '\(s.jump.b1.host)' (jump host b1) can't be established.")
        try essh.tmux.type("yes")
        try essh.tmux.press("Enter")
        try essh.tmux.waitFor(text: "The authenticity of host '[\(s.jump.t1.host)]:\(s.jump.t1.port)' can't be")
        try essh.tmux.type("yes")
        try essh.tmux.press("Enter")
        try essh.tmux.waitFor(text: "DONE")
        try essh.waitForExit(0)
    }
}
