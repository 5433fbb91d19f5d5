import Foundation
import Testing
import TestSupport

/// `essh servers ...` run as a user would, against a database in a temporary folder.
@Suite struct ServersCommandTests {
    private func essh(_ dir: TempDir, _ args: [String], env: [String: String] = [:]) throws -> RunResult {
        var environment = ["ESSH_DB": dir.file("essh.db"), "HOME": dir.path]
        for (k, v) in env { environment[k] = v }
        return try Binary.runEssh(args, environment: environment)
    }

    private func listJSON(_ dir: TempDir) throws -> [[String: Any]] {
        let r = try essh(dir, ["servers", "list", "--json"])
        #expect(r.status == 0, "\(r.err)")
        let object = try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any]
        return object?["servers"] as? [[String: Any]] ?? []
    }

    @Test func addListEditRemoveRoundTrip() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let add = try essh(dir, ["servers", "add", "web1", "--host", "10.1.2.3", "--port", "2222", "--user", "deploy",
                                 "--key", "~/.ssh/id_ed25519", "--os", "linux", "--tag", "prod", "--tag", "web",
                                 "--note", "front door"])
        #expect(add.status == 0, "\(add.err)")
        #expect(add.out == "Saved web1 (deploy@10.1.2.3:2222).\n")
        #expect(try essh(dir, ["servers", "add", "db1", "--host", "db.lan", "--tag", "prod"]).status == 0)
        let list = try essh(dir, ["servers", "list"])
        #expect(list.status == 0)
        #expect(list.out.contains("web1"))
        #expect(list.out.contains("deploy@10.1.2.3:2222"))
        #expect(!list.out.contains("\u{1B}["), "no colour when stdout is not a terminal")
        let servers = try listJSON(dir)
        #expect(servers.map { $0["name"] as? String } == ["db1", "web1"])
        let web = servers[1]
        #expect(web["port"] as? Int == 2222 && web["user"] as? String == "deploy" && web["auth"] as? String == "key")
        #expect(web["key"] as? String == "~/.ssh/id_ed25519" && web["os"] as? String == "linux")
        #expect(web["tags"] as? [String] == ["prod", "web"] && web["note"] as? String == "front door")
        #expect(web["password"] == nil)

        let edit = try essh(dir, ["servers", "edit", "web1", "--port", "22", "--tag", "staging"])
        #expect(edit.status == 0, "\(edit.err)")
        let edited = try listJSON(dir)[1]
        #expect(edited["port"] as? Int == 22 && edited["tags"] as? [String] == ["staging"])
        #expect(edited["user"] as? String == "deploy")

        let tagged = try essh(dir, ["servers", "list", "--tag", "prod", "--json"])
        #expect(tagged.out.contains("db1") && !tagged.out.contains("web1"))

        #expect(try essh(dir, ["servers", "rm", "db1"]).status == 0)
        #expect(try listJSON(dir).map { $0["name"] as? String } == ["web1"])
    }

    @Test func badInputGetsAClearMessageAndANonZeroExit() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        #expect(try essh(dir, ["servers", "add", "a", "--host", "h"]).status == 0)
        let cases: [([String], String)] = [
            (["servers", "add", "a", "--host", "other"], "already saved"),
            (["servers", "add", "b", "--host", ""], "host of 'b' is empty"),
            (["servers", "add", "b"], "--host"),
            (["servers", "add", "b", "--host", "h", "--port", "0"], "from 1 to 65535"),
            (["servers", "add", "b", "--host", "h", "--port", "65536"], "from 1 to 65535"),
            (["servers", "add", "b", "--host", "h", "--port", "ssh"], "port"),
            (["servers", "add", "b", "--host", "h", "--os", "plan9"], "os"),
            (["servers", "edit", "ghost", "--port", "22"], "No saved server is named 'ghost'"),
            (["servers", "rm", "ghost"], "No saved server is named 'ghost'"),
            (["servers", "edit", "a", "--port", "70000"], "from 1 to 65535"),
            (["servers", "import-ssh-config", dir.file("missing-config")], "Cannot read the ssh config"),
        ]
        for (args, message) in cases {
            let r = try essh(dir, args)
            #expect(r.status != 0, "\(args) should fail")
            #expect(r.err.contains(message), "\(args): \(r.err)")
            #expect(r.out.isEmpty, "\(args)")
        }
        #expect(try listJSON(dir).count == 1)
    }

    @Test func theDbOptionAndEsshDbChooseTheFileAndItIsPrivate() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let custom = dir.file("nested/custom.db")
        #expect(try essh(dir, ["servers", "add", "a", "--host", "h", "--db", custom]).status == 0)
        #expect(FileManager.default.fileExists(atPath: custom))
        #expect(!FileManager.default.fileExists(atPath: dir.file("essh.db")))
        let attributes = try FileManager.default.attributesOfItem(atPath: custom)
        #expect(attributes[.posixPermissions] as? Int == 0o600)
        let folder = try FileManager.default.attributesOfItem(atPath: dir.file("nested"))
        #expect(folder[.posixPermissions] as? Int == 0o700)
        // Without --db or ESSH_DB the XDG location under HOME is used.
        let r = try Binary.runEssh(["servers", "add", "x", "--host", "h"],
                                   environment: ["HOME": dir.path, "ESSH_DB": ""])
        #expect(r.status == 0, "\(r.err)")
        #expect(FileManager.default.fileExists(atPath: dir.file(".local/share/essh/essh.db")))
    }

    @Test func importReadsIncludesAliasesAndWildcardsAndUpdatesOnTheSecondRun() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let ssh = dir.file(".ssh")
        try FileManager.default.createDirectory(atPath: ssh + "/config.d", withIntermediateDirectories: true)
        let config = """
            # personal
            Include config.d/*.conf
            Host web web-alias
                HostName 192.0.2.10
                User www
                IdentityFile ~/.ssh/id_web
            Host *.corp
                User corp
            Host *
                Port 2222
            """
        try config.write(toFile: ssh + "/config", atomically: true, encoding: .utf8)
        try "Host db\n    HostName 192.0.2.20\n    Port 5022\n".write(toFile: ssh + "/config.d/db.conf",
                                                                       atomically: true, encoding: .utf8)
        try "Host ignored\n".write(toFile: ssh + "/config.d/ignored.txt", atomically: true, encoding: .utf8)
        let before = try Data(contentsOf: URL(fileURLWithPath: ssh + "/config"))
        let first = try essh(dir, ["servers", "import-ssh-config"])
        #expect(first.status == 0, "\(first.err)")
        #expect(first.out.contains("3 added, 0 updated, 0 unchanged"))
        let servers = try listJSON(dir)
        #expect(servers.map { $0["name"] as? String } == ["db", "web", "web-alias"])
        #expect(servers[0]["port"] as? Int == 5022)
        #expect(servers[1]["port"] as? Int == 2222 && servers[1]["key"] as? String == dir.path + "/.ssh/id_web")
        #expect(try Data(contentsOf: URL(fileURLWithPath: ssh + "/config")) == before)

        try config.replacingOccurrences(of: "192.0.2.10", with: "192.0.2.11")
            .write(toFile: ssh + "/config", atomically: true, encoding: .utf8)
        let second = try essh(dir, ["servers", "import-ssh-config", ssh + "/config"])
        #expect(second.out.contains("0 added, 2 updated, 1 unchanged"), "\(second.out)")
        #expect(try listJSON(dir).count == 3)
    }

    /// `--host user@host:port` and `ssh://user@host:port` are split into the three, not saved as a host name (and
    /// `ssh://user` is no user); a user or port that contradicts --user/--port is refused with a sentence.
    @Test func addSplitsUserHostAndPortAndRefusesConflicts() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let plain = try essh(dir, ["servers", "add", "a", "--host", "alice@h.lan:2222"])
        #expect(plain.status == 0 && plain.out == "Saved a (alice@h.lan:2222).\n", "\(plain.err)")
        #expect(try essh(dir, ["servers", "add", "b", "--host", "ssh://bob@[2001:db8::1]:2200"]).status == 0)
        #expect(try essh(dir, ["servers", "add", "c", "--host", "ssh://web.lan/", "--port", "2022"]).status == 0)
        #expect(try essh(dir, ["servers", "add", "d", "--host", "dee@d.lan:22", "--user", "dee"]).status == 0)
        #expect(try listJSON(dir).map(address) == [
            ["h.lan", "alice", "2222"], ["2001:db8::1", "bob", "2200"], ["web.lan", "-", "2022"],
            ["d.lan", "dee", "22"],
        ])
        let refused: [([String], String)] = [
            (["servers", "add", "e", "--host", "alice@h", "--user", "bob"],
             "'alice@h' names the user alice, but --user says bob: give the user once."),
            (["servers", "add", "e", "--host", "h:2222", "--port", "22"],
             "'h:2222' names the port 2222, but --port says 22: give the port once."),
            (["servers", "add", "e", "--host", "ssh://h/etc"], "is not an address: an ssh:// address names no path"),
            (["servers", "edit", "a", "--host", "x@h", "--user", "y"], "names the user x, but --user says y"),
        ]
        for (args, message) in refused {
            let r = try essh(dir, args)
            #expect(r.status == 2 && r.err.contains(message), "\(args): \(r.err)")
        }
        #expect(try listJSON(dir).count == 4)
        #expect(try essh(dir, ["servers", "edit", "a", "--host", "ssh://carol@h2.lan"]).status == 0)
        #expect(try listJSON(dir).first.map(address) == ["h2.lan", "carol", "2222"])
    }

    /// A listed server's host, user and port as text ("-" for none).
    private func address(_ server: [String: Any]) -> [String] {
        ["host", "user", "port"].map { key in server[key].flatMap { $0 is NSNull ? nil : "\($0)" } ?? "-" }
    }

    /// Nothing imported is silently wrong: a host behind a jump host keeps its chain (ProxyJump, ProxyCommand
    /// ssh -W), another ProxyCommand is kept in the note and counted as not supported, a bad Port is skipped; each
    /// is counted and said with why; options eSSH does not use are named per host, once.
    @Test func importSkipsAndCountsWhatItCannotUseAndNamesUnusedOptions() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        try """
            Host inner
                HostName 10.0.0.5
                ProxyJump bastion
            Host badport
                Port 70000
            Host web01 web02
                LocalForward 8080 localhost:80
                ForwardAgent yes
            Host plain
                HostName plain.lan
                RemoteForward 1080
            Host piped
                ProxyCommand ssh -W %h:%p admin@gw
            Host socks
                ProxyCommand nc -X 5 -x proxy:1080 %h %p
            """.write(toFile: dir.file("config"), atomically: true, encoding: .utf8)
        let r = try essh(dir, ["servers", "import-ssh-config", dir.file("config")])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out == "Imported \(dir.file("config")): 6 added, 0 updated, 0 unchanged, 1 skipped, "
                + "2 with options eSSH does not use, 1 with a ProxyCommand eSSH does not support (kept in the "
                + "note), 2 tunnels added, 1 forward eSSH does not support (left out).\n")
        #expect(r.err.contains("essh: skipped badport: its Port '70000' ("))
        #expect(r.err.contains("essh: web[01-02]: not used by eSSH (imported without): ForwardAgent\n"))
        #expect(r.err.contains("essh: plain: RemoteForward 1080 (\(dir.file("config")):11): a RemoteForward without "
                               + "a target is a SOCKS proxy on the server's side"), "\(r.err)")
        #expect(r.err.contains("essh: socks: ProxyCommand nc -X 5 -x proxy:1080 %h %p (\(dir.file("config")):15) is "
                               + "not supported"), "\(r.err)")
        let list = try listJSON(dir)
        #expect(list.map { $0["name"] as? String } == ["inner", "piped", "plain", "socks", "web01", "web02"])
        #expect(list.map { $0["jump"] as? String } == ["bastion", "admin@gw", "", "", "", ""])
        #expect((list[3]["note"] as? String)?.hasPrefix("ProxyCommand nc -X 5") == true)
        #expect((list[2]["note"] as? String)?.hasPrefix("RemoteForward 1080 (") == true)
        #expect(list[4]["forwards"] as? [String] == ["L:8080:localhost:80"])
        #expect(list[5]["forwards"] as? [String] == ["L:8080:localhost:80"])
    }

    @Test func exportWritesSSHConfigThatImportsBackToTheSameServers() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        _ = try essh(dir, ["servers", "add", "a", "--host", "a.lan", "--port", "2200", "--user", "me",
                           "--key", "/k/id"])
        _ = try essh(dir, ["servers", "add", "b", "--host", "::1"])
        let export = try essh(dir, ["servers", "export"])
        #expect(export.status == 0)
        #expect(export.out.contains("Host a\n    HostName a.lan\n    Port 2200\n    User me\n    IdentityFile /k/id\n"))
        try export.stdout.write(to: URL(fileURLWithPath: dir.file("exported")))
        let other = ["ESSH_DB": dir.file("other.db")]
        #expect(try essh(dir, ["servers", "import-ssh-config", dir.file("exported")], env: other).status == 0)
        let original = try essh(dir, ["servers", "export", "--format", "json"])
        let copy = try essh(dir, ["servers", "export", "--format", "json"], env: other)
        func connection(_ r: RunResult) throws -> [[String]] {
            let object = try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any]
            let list = object?["servers"] as? [[String: Any]]
            return (list ?? []).map { s in ["name", "host", "port", "user", "key"].map { "\(s[$0] ?? "")" } }
        }
        #expect(try connection(original) == (try connection(copy)))
        #expect(try connection(original).count == 2)
    }

    @Test func twoProcessesWritingAtOnceLoseNothing() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let environment = ["ESSH_DB": dir.file("race.db"), "HOME": dir.path]
        let group = DispatchGroup()
        let failures = LockedList()
        for writer in ["a", "b"] {
            group.enter()
            DispatchQueue.global().async {
                for i in 0..<25 {
                    let r = try? Binary.runEssh(["servers", "add", "\(writer)\(i)", "--host", "h\(i)"],
                                                environment: environment)
                    if r?.status != 0 { failures.append("\(writer)\(i): \(r?.err ?? "did not run")") }
                }
                group.leave()
            }
        }
        group.wait()
        #expect(failures.items.isEmpty, "\(failures.items)")
        let r = try Binary.runEssh(["servers", "list", "--json"], environment: environment)
        let list = (try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any])?["servers"] as? [Any]
        #expect(list?.count == 50)
    }

    @Test func unusableDatabaseFilesAreRefusedAndLeftByteIdentical() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let corrupt = dir.file("corrupt.db")
        let junk = Data("this is not a database, just text that must survive\n".utf8)
        try junk.write(to: URL(fileURLWithPath: corrupt))
        let r1 = try Binary.runEssh(["servers", "list", "--db", corrupt])
        #expect(r1.status == 3)
        #expect(r1.err.contains("damaged or is not an SQLite file"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: corrupt)) == junk)

        let readOnly = dir.file("ro.db")
        #expect(try Binary.runEssh(["servers", "add", "a", "--host", "h", "--db", readOnly]).status == 0)
        chmod(readOnly, 0o400)
        let before = try Data(contentsOf: URL(fileURLWithPath: readOnly))
        let r2 = try Binary.runEssh(["servers", "add", "b", "--host", "h", "--db", readOnly])
        #expect(r2.status == 3)
        #expect(r2.err.contains("read-only"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: readOnly)) == before)

        let newer = dir.file("newer.db")
        #expect(try Binary.runEssh(["servers", "add", "a", "--host", "h", "--db", newer]).status == 0)
        let python = try Binary.run("/usr/bin/env", ["python3", "-c", """
            import sqlite3, sys
            c = sqlite3.connect(sys.argv[1])
            c.execute("INSERT INTO grdb_migrations VALUES ('v99-future')")
            c.commit()
            c.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            c.close()
            """, newer])
        #expect(python.status == 0, "\(python.err)")
        let newerBytes = try Data(contentsOf: URL(fileURLWithPath: newer))
        let r3 = try Binary.runEssh(["servers", "add", "b", "--host", "h", "--db", newer])
        #expect(r3.status == 3)
        #expect(r3.err.contains("written by a newer eSSH"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: newer)) == newerBytes)
    }
}

final class LockedList: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [String] = []
    func append(_ s: String) { lock.lock(); list.append(s); lock.unlock() }
    var items: [String] { lock.lock(); defer { lock.unlock() }; return list }
}

/// Many `essh servers add` started at once on a database that does not exist yet: every one succeeds, on one file.
@Suite struct ServersFirstUseRaceTests {
    @Test func aHundredAddsAtOnceOnANewDatabaseAllSucceed() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let db = dir.file("fresh/essh.db")
        var environment = ProcessInfo.processInfo.environment
        environment["ESSH_DB"] = db
        let processes = try (0..<100).map { i -> Process in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: Binary.essh)
            process.arguments = ["servers", "add", "s\(i)", "--host", "h\(i).example"]
            process.environment = environment
            process.standardOutput = FileHandle.nullDevice
            let errors = Pipe()
            process.standardError = errors
            try process.run()
            return process
        }
        var failures: [String] = []
        for (i, process) in processes.enumerated() {
            let err = (process.standardError as? Pipe)?.fileHandleForReading.readDataToEndOfFile() ?? Data()
            process.waitUntilExit()
            if process.terminationStatus != 0 {
                failures.append("s\(i): \(process.terminationStatus) \(String(decoding: err, as: UTF8.self))")
            }
        }
        #expect(failures == [], "\(failures.prefix(3))")
        let list = try Binary.runEssh(["servers", "list", "--json"], environment: ["ESSH_DB": db])
        let object = try JSONSerialization.jsonObject(with: list.stdout) as? [String: Any]
        #expect((object?["servers"] as? [Any])?.count == 100, "\(list.err)")
    }
}

/// Control characters never get into the inventory, and what eSSH prints never carries one raw (issue 13 §2).
@Suite struct ControlCharacterTests {
    private func essh(_ dir: TempDir, _ args: [String]) throws -> RunResult {
        try Binary.runEssh(args, environment: ["ESSH_DB": dir.file("essh.db"), "HOME": dir.path])
    }

    @Test func everyFieldRefusesControlCharactersAndTheMessageShowsThemSafely() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let title = "\u{1B}]0;owned\u{07}"
        let cases: [[String]] = [
            ["servers", "add", "web\(title)", "--host", "h"],
            ["servers", "add", "web", "--host", "h\(title)"],
            ["servers", "add", "web", "--host", "h", "--user", "u\u{1B}[2J"],
            ["servers", "add", "web", "--host", "h", "--tag", "t\u{1}x"],  // (argv cannot carry NUL)
            ["servers", "add", "web", "--host", "h", "--key", "/tmp/k\"\nProxyCommand touch /tmp/pwned"],
            ["servers", "add", "web", "--host", "h", "--note", "n\u{9B}31m"],
        ]
        for args in cases {
            let r = try essh(dir, args)
            #expect(r.status != 0, "\(args.debugDescription) was accepted")
            #expect(r.err.contains("control character"), "\(args.debugDescription): \(r.err)")
            #expect(!r.err.contains("\u{1B}") && !r.err.contains("\u{07}") && !r.err.contains("\u{0}"),
                    "raw control characters on stderr: \(r.err.debugDescription)")
        }
        let list = try essh(dir, ["servers", "list", "--json"])
        #expect(!list.out.contains("\"name\" : \"web"), "nothing was saved")
    }

    @Test func anErrorEchoingADestinationShowsItsEscapesAsText() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let r = try essh(dir, ["exec", "--connect-timeout", "2", "x@no-such-host\u{1B}]0;owned\u{07}.invalid", "true"])
        #expect(r.status == 64, "a usage error")
        #expect(r.err.contains("␛]0;owned␇") || r.err.contains("\\u{1b}]0;owned"), "the escape is shown as text")
        #expect(!r.err.contains("\u{1B}") && !r.err.contains("\u{07}"), "\(r.err.debugDescription)")
    }

    @Test func aTableShowsAnOldDatabasesEscapesAsText() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        #expect(try essh(dir, ["servers", "add", "old", "--host", "h.example"]).status == 0)
        // A database written before the rule: the value went in directly.
        let sql = try Binary.run("/usr/bin/sqlite3", [dir.file("essh.db"),
                                                      "UPDATE server SET host = 'h' || char(27) || ']0;owned' || char(7)"])
        try #require(sql.status == 0, "sqlite3: \(sql.err)")
        let list = try essh(dir, ["servers", "list"])
        #expect(list.status == 0)
        #expect(!list.out.contains("\u{1B}") && !list.out.contains("\u{07}"), "\(list.out.debugDescription)")
        #expect(list.out.contains("␛]0;owned␇"))
    }
}

/// `servers export` writes values ssh_config reads back exactly; a value that cannot be written is refused.
@Suite struct ServersExportQuotingTests {
    @Test func aKeyPathWithQuotesAndSpacesRoundTripsThroughOpenSSH() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let env = ["ESSH_DB": dir.file("essh.db"), "HOME": dir.path]
        let key = dir.path + "/my keys/id \"work\" 100%"
        let add = try Binary.runEssh(["servers", "add", "w", "--host", "w.example", "--auth", "key", "--key", key],
                                     environment: env)
        #expect(add.status == 0, "\(add.err)")
        let export = try Binary.runEssh(["servers", "export"], environment: env)
        #expect(export.status == 0, "\(export.err)")
        try export.out.write(toFile: dir.file("config"), atomically: true, encoding: .utf8)
        // OpenSSH's own reading of the file.
        let g = try Binary.run("/usr/bin/ssh", ["-G", "-F", dir.file("config"), "w"], environment: ["HOME": dir.path])
        #expect(g.status == 0, "\(g.err)")
        let identity = g.out.split(separator: "\n").first { $0.hasPrefix("identityfile ") }
        // ssh -G shows the value before % tokens are expanded (at use, %% becomes %).
        #expect(identity.map { String($0.dropFirst("identityfile ".count)) }
                == key.replacingOccurrences(of: "%", with: "%%"), "\(export.out)")
        #expect(!g.out.contains("proxycommand"))
        // And eSSH's own import reads it back the same.
        let env2 = ["ESSH_DB": dir.file("again.db"), "HOME": dir.path]
        let imported = try Binary.runEssh(["servers", "import-ssh-config", dir.file("config")], environment: env2)
        #expect(imported.status == 0, "\(imported.err)")
        let json = try Binary.runEssh(["servers", "list", "--json"], environment: env2)
        let servers = (try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any])?["servers"] as? [[String: Any]]
        #expect(servers?.first?["key"] as? String == key)
    }

    @Test func aValueThatCannotBeWrittenIsRefusedNamingTheServer() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let env = ["ESSH_DB": dir.file("essh.db"), "HOME": dir.path]
        #expect(try Binary.runEssh(["servers", "add", "old", "--host", "h", "--auth", "key", "--key", "/k"],
                                   environment: env).status == 0)
        // A database from before the input rule, holding a key path with a line break.
        let sql = try Binary.run("/usr/bin/sqlite3", [dir.file("essh.db"),
                                                      "UPDATE server SET keyPath = '/k\"' || char(10) || 'ProxyCommand touch /tmp/pwned'"])
        try #require(sql.status == 0, "\(sql.err)")
        let export = try Binary.runEssh(["servers", "export"], environment: env)
        #expect(export.status != 0)
        #expect(!export.out.contains("ProxyCommand"), "nothing half-written")
        #expect(export.err.contains("Cannot export old"), "\(export.err)")
    }
}
