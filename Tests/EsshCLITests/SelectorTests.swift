import Foundation
import Testing
import TestSupport

/// One selector grammar for every command that picks servers (`exec`, `net`, `check`, `servers list`): several tags
/// are their union, `!`/`--exclude` leave servers out, globs and ranges pick names, `-h FILE` reads a hosts file.
/// The servers listen nowhere (a closed port on loopback), so each run ends at once and its JSON names who was
/// picked.
@Suite struct SelectorTests {
    private func essh(_ dir: TempDir, _ args: [String]) throws -> RunResult {
        try Binary.runEssh(args, environment: ["ESSH_DB": dir.file("essh.db"), "HOME": dir.path])
    }

    /// web01…web04 (tag web), db1 (tags db), db2 (tags db, fleet), mail (tag fleet): all on a closed port.
    private func servers(_ dir: TempDir) throws -> Int {
        let port = try LoopbackListener.closedPort()
        let saved: [(String, [String])] = [
            ("web01", ["web"]), ("web02", ["web"]), ("web03", ["web"]), ("web04", ["web"]),
            ("db1", ["db"]), ("db2", ["db", "fleet"]), ("mail", ["fleet"]),
        ]
        for (name, tags) in saved {
            let r = try essh(dir, ["servers", "add", name, "--host", "127.0.0.1", "--port", String(port)]
                                + tags.flatMap { ["--tag", $0] })
            #expect(r.status == 0, "\(r.err)")
        }
        return port
    }

    /// The names of a JSON document's `servers` or `results`, in order.
    private func names(_ r: RunResult, _ key: String = "results") -> [String] {
        let object = (try? JSONSerialization.jsonObject(with: r.stdout)) as? [String: Any]
        return (object?[key] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
    }

    private func list(_ dir: TempDir, _ args: [String]) throws -> [String] {
        let r = try essh(dir, ["servers", "list", "--json"] + args)
        #expect(r.status == 0, "\(args): \(r.err)")
        return names(r, "servers")
    }

    private func exec(_ dir: TempDir, _ args: [String]) throws -> [String] {
        let r = try essh(dir, ["exec", "--json"] + args + ["--", "true"])
        #expect(r.status == 1, "\(args): \(r.err)")
        return names(r)
    }

    @Test func twoTagsGiveTheUnionInEveryCommand() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        _ = try servers(dir)
        #expect(try list(dir, ["--tag", "db", "--tag", "fleet"]) == ["db1", "db2", "mail"])
        #expect(try exec(dir, ["--tag", "db", "--tag", "fleet"]) == ["db1", "db2", "mail"])
        let net = try essh(dir, ["net", "--json", "--tag", "db", "--tag", "fleet", "routes"])
        #expect(net.status == 1 && names(net) == ["db1", "db2", "mail"], "\(net.err)")
        let check = try essh(dir, ["check", "--json", "--tag", "db", "--tag", "fleet"])
        #expect(check.status == 1 && names(check) == ["db1", "db2", "mail"], "\(check.err)")
        let words = try essh(dir, ["check", "--json", "tag:db", "tag:fleet"])
        #expect(names(words) == ["db1", "db2", "mail"], "\(words.err)")
    }

    @Test func exclusionLeavesServersOut() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        _ = try servers(dir)
        #expect(try list(dir, ["web*", "!web02"]) == ["web01", "web03", "web04"])
        #expect(try list(dir, ["--exclude", "tag:web"]) == ["db1", "db2", "mail"])
        #expect(try exec(dir, ["--all", "--exclude", "tag:web", "--exclude", "db2"]) == ["db1", "mail"])
        #expect(try exec(dir, ["tag:fleet,!mail"]) == ["db2"])
        let check = try essh(dir, ["check", "--json", "!tag:web", "!db1"])
        #expect(names(check) == ["db2", "mail"], "\(check.err)")
    }

    @Test func globsAndRangesPickNames() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let port = try servers(dir)
        #expect(try list(dir, ["web0[2-3]"]) == ["web02", "web03"])
        #expect(try list(dir, ["db?"]) == ["db1", "db2"])
        #expect(try exec(dir, ["web[01-02],db*"]) == ["web01", "web02", "db1", "db2"])
        // Where unsaved hosts are taken, a range stands for its names, as pdsh's -w does.
        #expect(try exec(dir, ["127.0.0.1:[\(port)-\(port)],web04"]) == ["127.0.0.1:\(port)", "web04"])
    }

    @Test func aHostsFileNamesSavedServersAndHosts() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let port = try servers(dir)
        try """
            # pssh's format: one host a line
            web03
            someone@127.0.0.1:\(port)   # not saved

            db1
            """.write(toFile: dir.file("hosts"), atomically: true, encoding: .utf8)
        #expect(try exec(dir, ["-h", dir.file("hosts")]) == ["web03", "someone@127.0.0.1:\(port)", "db1"])
        #expect(try exec(dir, ["--hosts-file", dir.file("hosts"), "--exclude", "db1"])
                == ["web03", "someone@127.0.0.1:\(port)"])
        let check = try essh(dir, ["check", "--json", "-h", dir.file("hosts")])
        #expect(names(check) == ["web03", "someone@127.0.0.1:\(port)", "db1"], "\(check.err)")
        let missing = try essh(dir, ["exec", "-h", dir.file("nope"), "--", "true"])
        #expect(missing.status == 2 && missing.err.contains(dir.file("nope")), "\(missing.err)")
        try "web01 web02\n".write(toFile: dir.file("bad"), atomically: true, encoding: .utf8)
        let bad = try essh(dir, ["servers", "list", "-h", dir.file("bad")])
        #expect(bad.status == 2 && bad.err.contains("\(dir.file("bad")):1: “web01 web02” is more than one word"))
    }

    /// A selector written wrong is a usage error (64, with the usage); one that names nothing is bad input (2).
    @Test func badSelectorsAreRefusedWithASentence() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        _ = try servers(dir)
        let malformed: [[String]] = [
            ["servers", "list", "web[5-1]"], ["check", "tag:"], ["exec", "web[", "--", "true"],
            ["exec", "--exclude", "!web01", "--all", "--", "true"], ["net", "!!x", "routes"],
        ]
        for args in malformed {
            let r = try essh(dir, args)
            #expect(r.status == 64 && r.err.contains("Usage:"), "\(args): \(r.status) \(r.err)")
        }
        let range = try essh(dir, ["servers", "list", "web[20-01]"])
        #expect(range.err.contains("'web[20-01]' is not a valid selector: [20-01] goes down from 20 to 01"))
        let unknown: [([String], String)] = [
            (["servers", "list", "--tag", "nope"], "No saved server has the tag 'nope'."),
            (["servers", "list", "zz*"], "'zz*' matches no saved server's name"),
            (["exec", "--tag", "web", "--exclude", "wbe01", "--", "true"], "'!wbe01' excludes nothing"),
            (["servers", "list", "ghost"], "No saved server is named 'ghost'"),
            (["servers", "list", "--tag", "web", "--exclude", "web0?"], "'!web0?' leaves no server"),
            (["exec", "--tag", "web", "--exclude", "tag:web", "--", "true"], "'!tag:web' leaves no server"),
            (["check", "--all", "--exclude", "*"], "'!*' leaves no server"),
        ]
        for (args, message) in unknown {
            let r = try essh(dir, args)
            #expect(r.status == 2 && r.err.hasPrefix("essh: ") && r.err.contains(message), "\(args): \(r.err)")
            #expect(!r.err.contains("Usage:"), "\(args)")
        }
    }

    /// A fleet's grouped output folds the names of its servers into ranges, as dshbak -c does.
    @Test func groupedOutputFoldsNames() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        _ = try servers(dir)
        let r = try essh(dir, ["exec", "--group", "--tag", "web", "--", "true"])
        #expect(r.out.hasPrefix("== web[01-04] (4 servers) · refused\n"), "\(r.out)")
    }
}
