import Foundation
import Testing
import TestSupport

/// `essh servers export --json` and `essh servers import FILE`: everything eSSH stores about a server goes out and
/// comes back.
@Suite struct ServersImportTests {
    private func essh(_ db: String, _ dir: TempDir, _ args: [String], stdin: Data? = nil) throws -> RunResult {
        try Binary.runEssh(args, stdin: stdin, environment: ["ESSH_DB": db, "HOME": dir.path])
    }

    @Test func exportThenImportIntoANewDatabaseThenExportIsIdentical() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let first = dir.file("first.db"), second = dir.file("second.db")
        let adds: [[String]] = [
            ["web1", "--host", "10.1.2.3", "--port", "2222", "--user", "deploy", "--key", "~/.ssh/id_ed25519",
             "--os", "linux", "--tag", "prod", "--tag", "web", "--note", "front door, “quoted” ünï"],
            ["router", "--host", "192.0.2.1", "--auth", "password", "--os", "bsd", "--ciphers", "+aes128-cbc",
             "--kex", "^diffie-hellman-group14-sha256", "--macs", "-hmac-sha1", "--host-key-algorithms", "+ssh-rsa"],
            ["plain", "--host", "h.example"],
        ]
        for args in adds {
            let r = try essh(first, dir, ["servers", "add"] + args)
            #expect(r.status == 0, "\(r.err)")
        }
        let exported = try essh(first, dir, ["servers", "export", "--json"])
        #expect(exported.status == 0, "\(exported.err)")
        try exported.stdout.write(to: URL(fileURLWithPath: dir.file("servers.json")))
        let imported = try essh(second, dir, ["servers", "import", dir.file("servers.json")])
        #expect(imported.status == 0, "\(imported.err)")
        #expect(imported.out == "Imported \(dir.file("servers.json")): 3 added, 0 replaced, 0 unchanged.\n")
        let again = try essh(second, dir, ["servers", "export", "--json"])
        #expect(again.out == exported.out, "the round trip changes nothing")
        // What the round trip carried, field by field.
        let object = try JSONSerialization.jsonObject(with: again.stdout) as? [String: Any]
        let servers = try #require(object?["servers"] as? [[String: Any]])
        let web = try #require(servers.first { $0["name"] as? String == "web1" })
        #expect(web["tags"] as? [String] == ["prod", "web"] && web["note"] as? String == "front door, “quoted” ünï")
        #expect(web["auth"] as? String == "key" && web["key"] as? String == "~/.ssh/id_ed25519")
        #expect(web["os"] as? String == "linux" && web["port"] as? Int == 2222 && web["user"] as? String == "deploy")
        let router = try #require(servers.first { $0["name"] as? String == "router" })
        #expect(router["auth"] as? String == "password" && router["os"] as? String == "bsd")
        #expect(router["algorithms"] as? [String: String] == [
            "Ciphers": "+aes128-cbc", "KexAlgorithms": "^diffie-hellman-group14-sha256", "MACs": "-hmac-sha1",
            "HostKeyAlgorithms": "+ssh-rsa",
        ])
        // Importing the same file again (from standard input) changes nothing; ssh_config export agrees too.
        let twice = try essh(second, dir, ["servers", "import", "-"], stdin: exported.stdout)
        #expect(twice.out == "Imported standard input: 0 added, 0 replaced, 3 unchanged.\n", "\(twice.err)")
        #expect(try essh(second, dir, ["servers", "export"]).out == (try essh(first, dir, ["servers", "export"])).out)
    }

    @Test func aSavedServerIsReplacedWithEveryFieldOfTheFile() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let db = dir.file("essh.db")
        #expect(try essh(db, dir, ["servers", "add", "web1", "--host", "old", "--tag", "stale"]).status == 0)
        let json = #"{"servers":[{"name":"web1","host":"new.example","tags":["fresh"],"note":"n","os":"macos"}]}"#
        let r = try essh(db, dir, ["servers", "import", "-"], stdin: Data(json.utf8))
        #expect(r.out == "Imported standard input: 0 added, 1 replaced, 0 unchanged.\n", "\(r.err)")
        let show = try essh(db, dir, ["servers", "show", "--json", "web1"])
        let web = try JSONSerialization.jsonObject(with: show.stdout) as? [String: Any]
        #expect(web?["host"] as? String == "new.example" && web?["tags"] as? [String] == ["fresh"])
        #expect(web?["os"] as? String == "macos" && web?["note"] as? String == "n")
    }

    @Test func aWrongEntryImportsNothingAndSaysWhere() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let db = dir.file("essh.db")
        let cases: [(String, String)] = [
            (#"{"servers":[{"name":"a","host":"h"},{"name":"b","host":"h","auth":"magic"}]}"#,
             "standard input, server 2 (b): auth 'magic' is not key, agent or password. Nothing was imported."),
            (#"{"servers":[{"name":"a","host":"h"},{"name":"a","host":"i"}]}"#, "comes twice"),
            (#"{"servers":[{"name":"a","host":"h"},{"name":"b","host":"h","port":70000}]}"#, "Nothing was imported."),
            (#"{"servers":[{"name":"a","host":"h"},{"name":"c","host":"h","algorithms":{"Cipher":"x"}}]}"#,
             "algorithms has 'Cipher', not one of KexAlgorithms, HostKeyAlgorithms, Ciphers, MACs"),
            (#"{"servers":[{"host":"h"}]}"#, "servers[0].name is missing"),
            ("not json", "standard input is not a server export"),
        ]
        for (json, message) in cases {
            let r = try essh(db, dir, ["servers", "import", "-"], stdin: Data(json.utf8))
            #expect(r.status == 2, "\(json): \(r.err)")
            #expect(r.err.contains(message), "\(json): \(r.err)")
        }
        let list = try essh(db, dir, ["servers", "list", "--json"])
        #expect(!list.out.contains("\"a\""), "nothing was saved: \(list.out)")
        let missing = try essh(db, dir, ["servers", "import", dir.file("nope.json")])
        #expect(missing.status == 2 && missing.err.contains("nope.json"))
        let both = try essh(db, dir, ["servers", "export", "--json", "--format", "ssh-config"])
        #expect(both.status == 64 && both.err.contains("ask for two formats"))
    }
}
