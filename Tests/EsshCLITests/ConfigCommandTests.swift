import Foundation
import Testing
import TestSupport

/// `essh config get|set|unset|list`: the interface's settings by key, through Operations' one table.
@Suite struct ConfigCommandTests {
    private func essh(_ dir: TempDir, _ args: [String]) throws -> RunResult {
        try Binary.runEssh(args, environment: ["ESSH_DB": dir.file("essh.db"), "HOME": dir.path])
    }

    private func list(_ dir: TempDir, _ extra: [String] = []) throws -> [String: [String: Any]] {
        let r = try essh(dir, ["config", "list", "--json"] + extra)
        #expect(r.status == 0, "\(r.err)")
        let object = try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any]
        let rows = object?["settings"] as? [[String: Any]] ?? []
        return Dictionary(uniqueKeysWithValues: rows.map { ($0["key"] as? String ?? "", $0) })
    }

    @Test func setThenGetGivesTheValueAsTheSettingsScreenShowsIt() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let set = try essh(dir, ["config", "set", "fleet.timeout", " 2.50 "])
        #expect(set.status == 0, "\(set.err)")
        #expect(set.out == "fleet.timeout = 2.5\n")
        #expect(try essh(dir, ["config", "get", "fleet.timeout"]).out == "2.5\n")
        #expect(try essh(dir, ["config", "set", "ui.parse", "no"]).status == 0)
        #expect(try essh(dir, ["config", "get", "ui.parse"]).out == "off\n")
        #expect(try essh(dir, ["config", "set", "mail.recipient", ""]).status == 0)
        let rows = try list(dir)
        #expect(rows["fleet.timeout"]?["value"] as? String == "2.5" && rows["fleet.timeout"]?["set"] as? Bool == true)
        #expect(rows["fleet.timeout"]?["default"] as? String == "60")
        #expect(rows["check.interval"]?["set"] as? Bool == false && rows["check.interval"]?["value"] as? String == "0")
        #expect(rows["fleet.parallel"]?["hint"] as? String == "servers at once for x, 1 to 1024")
        // Every key of the Settings screen, and the same table: what the interface stores, the CLI reads.
        #expect(Set(rows.keys) == ["ui.parse", "check.interval", "check.timeout", "session.scrollback",
                                   "session.wrap", "session.keepalive", "ui.autoconnect", "mail.recipient", "mail.sendmail", "mail.from", "mail.max_inline",
                                   "ssh.known_hosts", "fleet.parallel", "fleet.timeout", "ui.mouse", "ui.sort",
                                   "ui.group", "vault.idle_lock", "vault.passphrase_command"])

        #expect(try essh(dir, ["config", "set", "session.wrap", "off"]).out == "session.wrap = off\n")
        let tooShort = try essh(dir, ["config", "set", "session.keepalive", "1"])
        #expect(tooShort.status == 2 && tooShort.err.contains("from 2 to 300"), "\(tooShort.err)")

        let unset = try essh(dir, ["config", "unset", "fleet.timeout"])
        #expect(unset.status == 0 && unset.out == "fleet.timeout = 60 (default)\n", "\(unset.err)")
        #expect(try essh(dir, ["config", "get", "fleet.timeout"]).out == "60\n")
        let table = try essh(dir, ["config", "list"])
        #expect(table.out.hasPrefix("KEY") && table.out.contains("ui.parse") && table.out.contains("off"))
    }

    @Test func aBadValueOrKeyIsRefusedNamingWhatIsValidAndWritesNothing() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        #expect(try essh(dir, ["config", "set", "fleet.parallel", "8"]).status == 0)
        let cases: [([String], [String])] = [
            (["config", "set", "fleet.parallel", "5000"], ["fleet.parallel", "from 1 to 1024"]),
            (["config", "set", "fleet.parallel", "many"], ["from 1 to 1024"]),
            (["config", "set", "check.timeout", "0"], ["from 0.1 to 60"]),
            (["config", "set", "ui.parse", "maybe"], ["on or off"]),
            (["config", "set", "mail.sendmail", "sendmail"], ["absolute path"]),
            (["config", "set", "parallel", "8"], ["no setting 'parallel'", "Did you mean fleet.parallel?",
                                                   "ui.parse", "fleet.timeout"]),
            (["config", "get", "fleet.paralel"], ["Did you mean fleet.parallel?"]),
            (["config", "unset", "nope"], ["no setting 'nope'"]),
        ]
        for (args, words) in cases {
            let r = try essh(dir, args)
            #expect(r.status == 2, "\(args): \(r.status) \(r.err)")
            #expect(r.out.isEmpty, "\(args)")
            for word in words { #expect(r.err.contains(word), "\(args): \(r.err)") }
        }
        let rows = try list(dir)
        #expect(rows["fleet.parallel"]?["value"] as? String == "8", "a refused value changes nothing")
        #expect(rows.values.filter { $0["set"] as? Bool == true }.count == 1)
    }

    @Test func readingNeverCreatesADatabaseAndDbPicksTheFile() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        #expect(try essh(dir, ["config", "get", "fleet.parallel"]).out == "64\n")
        #expect(try list(dir)["fleet.parallel"]?["value"] as? String == "64")
        #expect(try essh(dir, ["config", "unset", "fleet.parallel"]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: dir.file("essh.db")))
        let other = dir.file("other.db")
        #expect(try essh(dir, ["config", "set", "--db", other, "fleet.parallel", "3"]).status == 0)
        #expect(try essh(dir, ["config", "get", "--db", other, "fleet.parallel"]).out == "3\n")
        #expect(try essh(dir, ["config", "get", "fleet.parallel"]).out == "64\n")
        #expect(!FileManager.default.fileExists(atPath: dir.file("essh.db")))
    }

    /// What `essh config set` stores is what a fleet run reads (`fleet.parallel` lowered to what the CLI asks).
    @Test func aSettingSetHereIsTheOneFleetRunsUse() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        #expect(try essh(dir, ["config", "set", "fleet.timeout", "1"]).status == 0)
        let listener = try LoopbackListener(.silent)
        defer { listener.close() }
        let started = Date()
        let r = try essh(dir, ["exec", "--host-key-policy", "strict", "127.0.0.1:\(listener.port),", "--", "true"])
        #expect(r.status == 1, "\(r.err)")
        #expect(Date().timeIntervalSince(started) < 20, "the 1 s fleet.timeout applies, not the default 60 s")
        #expect(r.err.contains("timed-out"), "\(r.err)")
    }

    /// `ssh.known_hosts` set here is the file the command line trusts, as the interface does (HOME's own
    /// known_hosts is empty): a server known only in that file logs in; `--known-hosts` still wins.
    @Test func theKnownHostsSettingIsTheOneTheCommandLineTrusts() throws {
        let servers = try TestServers.require()
        let dir = try TempDir()
        defer { dir.cleanup() }
        let dest = ["-i", servers.keys + "/id_ed25519", "-p", "\(servers.port)", "\(servers.user)@\(servers.host)"]
        let before = try essh(dir, ["exec", "--host-key-policy", "strict"] + dest + ["--", "echo", "in"])
        #expect(before.status != 0 && before.err.contains("not known"), "\(before.err)")
        #expect(try essh(dir, ["config", "set", "ssh.known_hosts", servers.knownHosts]).status == 0)
        let after = try essh(dir, ["exec", "--host-key-policy", "strict"] + dest + ["--", "echo", "in"])
        #expect(after.status == 0 && after.out == "in\n", "\(after.err)")
        let overridden = try essh(dir, ["exec", "--host-key-policy", "strict", "--known-hosts", "/dev/null"] + dest
                                      + ["--", "echo", "in"])
        #expect(overridden.status != 0, "\(overridden.err)")
    }
}
