import Foundation
import Testing
import TestSupport

/// `essh servers show NAME` and `essh servers rm NAME…`.
@Suite struct ServersShowAndRemoveTests {
    private func essh(_ dir: TempDir, _ args: [String]) throws -> RunResult {
        try Binary.runEssh(args, environment: ["ESSH_DB": dir.file("essh.db"), "HOME": dir.path])
    }

    private func names(_ dir: TempDir) throws -> [String] {
        let r = try essh(dir, ["servers", "list", "--json"])
        let object = try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any]
        return (object?["servers"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
    }

    @Test func showGivesEveryStoredFieldTagsNoteAndTheLastCheck() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let add = try essh(dir, ["servers", "add", "web1", "--host", "10.1.2.3", "--port", "2222", "--user", "deploy",
                                 "--key", "~/.ssh/id_ed25519", "--os", "linux", "--tag", "prod", "--tag", "web",
                                 "--note", "front door", "--ciphers", "+aes128-cbc"])
        #expect(add.status == 0, "\(add.err)")
        let text = try essh(dir, ["servers", "show", "web1"])
        #expect(text.status == 0, "\(text.err)")
        for line in ["name            web1", "address         deploy@10.1.2.3:2222", "port            2222",
                     "user            deploy", "auth            key", "key             ~/.ssh/id_ed25519",
                     "os              linux", "tags            prod, web", "note            front door",
                     "algorithms      Ciphers +aes128-cbc", "last connected  never", "last check      never",
                     "tunnels         -"] {
            #expect(text.out.contains(line + "\n"), "\(line) in:\n\(text.out)")
        }
        #expect(text.out.contains("created         20"))

        let listener = try LoopbackListener(.sends("SSH-2.0-Shown"))
        defer { listener.close() }
        #expect(try essh(dir, ["servers", "add", "up", "--host", "127.0.0.1", "--port", String(listener.port)]).status == 0)
        #expect(try essh(dir, ["check", "up"]).status == 0)
        let checked = try essh(dir, ["servers", "show", "up"])
        #expect(checked.out.contains("last check      online, "), "\(checked.out)")
        #expect(checked.out.contains("SSH-2.0-Shown"))

        let json = try essh(dir, ["servers", "show", "web1", "--json"])
        #expect(json.status == 0, "\(json.err)")
        let object = try #require(try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any])
        #expect(object["name"] as? String == "web1" && object["port"] as? Int == 2222)
        #expect(object["tags"] as? [String] == ["prod", "web"] && object["note"] as? String == "front door")
        #expect((object["algorithms"] as? [String: String])?["Ciphers"] == "+aes128-cbc")
        #expect(object["last_check"] is NSNull && object["last_connected"] is NSNull)
        #expect(Set(object.keys) == ["name", "host", "port", "user", "auth", "key", "os", "tags", "note", "created",
                                     "updated", "last_connected", "last_check", "algorithms", "jump", "forwards",
                                     "autostart", "credential", "uid", "last_identity", "shared", "team_revision"])
        #expect(object["credential"] as? String == "ask" && object["last_identity"] is NSNull)
        #expect(object["shared"] as? Bool == false && object["team_revision"] is NSNull, "one's own server")
        #expect(object["jump"] as? String == "", "a direct server's chain is empty")
        #expect(object["forwards"] as? [String] == [] && object["autostart"] as? Bool == false, "no saved tunnels")
        let upJSON = try JSONSerialization.jsonObject(with: try essh(dir, ["servers", "show", "up", "--json"]).stdout)
        let lastCheck = (upJSON as? [String: Any])?["last_check"] as? [String: Any]
        #expect(lastCheck?["status"] as? String == "online" && lastCheck?["banner"] as? String == "SSH-2.0-Shown")

        let missing = try essh(dir, ["servers", "show", "ghost"])
        #expect(missing.status == 2 && missing.out.isEmpty && missing.err.contains("No saved server is named 'ghost'"))
    }

    @Test func showOnAMissingDatabaseNamesItAndCreatesNothing() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let r = try essh(dir, ["servers", "show", "web1"])
        #expect(r.status == 2 && r.err.contains("no database at"), "\(r.err)")
        #expect(!FileManager.default.fileExists(atPath: dir.file("essh.db")))
    }

    @Test func removingThreeWithOneMissingChangesNothingAndSaysWhich() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        for name in ["a", "b", "c", "d"] {
            #expect(try essh(dir, ["servers", "add", name, "--host", "h"]).status == 0)
        }
        let refused = try essh(dir, ["servers", "rm", "a", "ghost", "c"])
        #expect(refused.status == 2, "\(refused.err)")
        #expect(refused.out.isEmpty)
        #expect(refused.err.contains("'ghost'") && refused.err.contains("nothing was removed"), "\(refused.err)")
        #expect(try names(dir) == ["a", "b", "c", "d"])

        let removed = try essh(dir, ["servers", "rm", "a", "c", "d"])
        #expect(removed.status == 0, "\(removed.err)")
        #expect(removed.out == "Removed a.\nRemoved c.\nRemoved d.\n")
        #expect(try names(dir) == ["b"])
        let none = try essh(dir, ["servers", "rm"])
        #expect(none.status != 0 && none.err.contains("Name the servers to remove"))
    }
}
