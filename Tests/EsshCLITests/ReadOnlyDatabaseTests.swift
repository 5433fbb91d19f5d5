import Foundation
import Testing
import TestSupport

/// A mistyped `--db` must not leave folders and an empty database behind: commands that only read (and those that
/// would change a server that cannot be there) create nothing, and say where they looked.
@Suite struct ReadOnlyDatabaseTests {
    @Test func aReadOnlyCommandOnAMissingDatabaseCreatesNothingAndNamesIt() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let folder = dir.file("tpyo")
        let db = folder + "/sub/essh.db"
        let commands: [[String]] = [
            ["servers", "list"], ["servers", "list", "--json"], ["servers", "list", "--tag", "web"],
            ["servers", "list", "web*"], ["servers", "show", "web1"], ["servers", "export"],
            ["servers", "rm", "web1"], ["servers", "edit", "web1", "--port", "2222"],
            ["check", "web1", "--timeout", "0.5"], ["check"], ["config", "get", "fleet.parallel"], ["config", "list"],
            ["exec", "--tag", "web", "--", "true"], ["exec", "web1,web2", "--connect-timeout", "1", "--", "true"],
            ["exec", "--connect-timeout", "1", "nosuchname", "true"],
            ["net", "--tag", "web", "routes"],
        ]
        for args in commands {
            // --db right after the (sub)command, before any remote command.
            let at = ["servers", "config"].contains(args[0]) ? 2 : 1
            let r = try Binary.runEssh(Array(args[..<at]) + ["--db", db] + args[at...], environment: ["HOME": dir.path])
            #expect(!FileManager.default.fileExists(atPath: folder), "\(args) created \(folder)")
            if args.starts(with: ["servers", "list"]) && args.count == 2 {
                #expect(r.err.contains("There is no database at \(db) (nothing was created)."), "\(args): \(r.err)")
            }
            if args.contains("nosuchname") {
                #expect(r.err.contains("No saved server is named “nosuchname” either") && r.err.contains(db),
                        "\(r.err)")
            }
            if args.contains("--tag") || args.contains("show") || args.contains("rm") || args.contains("export") {
                #expect(r.status == 2 && r.err.contains(db), "\(args): \(r.status) \(r.err)")
            }
        }
    }
}
