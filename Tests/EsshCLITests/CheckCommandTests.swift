import Basics
import Foundation
import Inventory
import Testing
import TestSupport

/// `essh check` against real listeners on loopback.
@Suite struct CheckCommandTests {
    private func essh(_ dir: TempDir, _ args: [String], env: [String: String] = [:]) throws -> RunResult {
        var environment = ["ESSH_DB": dir.file("essh.db"), "HOME": dir.path]
        for (k, v) in env { environment[k] = v }
        return try Binary.runEssh(args, environment: environment)
    }

    private func add(_ dir: TempDir, _ name: String, _ host: String, _ port: Int, tags: [String] = []) throws {
        let r = try essh(dir, ["servers", "add", name, "--host", host, "--port", String(port)]
                                + tags.flatMap { ["--tag", $0] })
        #expect(r.status == 0, "\(r.err)")
    }

    private func results(_ r: RunResult) throws -> [String: [String: Any]] {
        let object = try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any]
        let list = object?["results"] as? [[String: Any]] ?? []
        return Dictionary(uniqueKeysWithValues: list.map { ($0["name"] as? String ?? "", $0) })
    }

    @Test func everyStatusIsReportedInJSONAndTheExitIsOneWhenNotAllAreOnline() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let ssh = try LoopbackListener(.sends("SSH-2.0-Fake_1.0 test"))
        let silent = try LoopbackListener(.silent)
        let full = try LoopbackListener(.backlogFull)
        defer { ssh.close(); silent.close(); full.close() }
        try add(dir, "up", "127.0.0.1", ssh.port)
        try add(dir, "mute", "127.0.0.1", silent.port)
        try add(dir, "closed", "127.0.0.1", try LoopbackListener.closedPort())
        try add(dir, "dropped", "127.0.0.1", full.port)
        try add(dir, "nxdomain", "no-such-host.invalid", 22)
        let r = try essh(dir, ["check", "--json", "--timeout", "0.7"])
        #expect(r.status == 1, "\(r.err)")
        let byName = try results(r)
        #expect(byName.count == 5)
        #expect(byName["up"]?["status"] as? String == "online")
        #expect(byName["up"]?["banner"] as? String == "SSH-2.0-Fake_1.0 test")
        #expect(byName["up"]?["latency_ms"] as? Double != nil)
        #expect(byName["up"]?["error"] is NSNull)
        #expect(byName["up"]?["host"] as? String == "127.0.0.1" && byName["up"]?["port"] as? Int == ssh.port)
        #expect(byName["mute"]?["status"] as? String == "not-ssh")
        #expect(byName["closed"]?["status"] as? String == "refused")
        #expect(byName["dropped"]?["status"] as? String == "timed-out")
        #expect(byName["dropped"]?["latency_ms"] is NSNull)
        #expect(byName["nxdomain"]?["status"] as? String == "dns-error")
        for (_, result) in byName {
            #expect(Set(result.keys) == ["name", "host", "port", "status", "latency_ms", "banner", "error", "via"])
            #expect(result["via"] is NSNull)
        }
    }

    @Test func resultsAreStoredAndShownByServersList() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let ssh = try LoopbackListener(.sends("SSH-2.0-Stored"))
        defer { ssh.close() }
        try add(dir, "up", "127.0.0.1", ssh.port)
        #expect(try essh(dir, ["check"]).status == 0)
        let list = try essh(dir, ["servers", "list", "--json"])
        let object = try JSONSerialization.jsonObject(with: list.stdout) as? [String: Any]
        let servers = object?["servers"] as? [[String: Any]]
        let last = servers?.first?["last_check"] as? [String: Any]
        #expect(last?["status"] as? String == "online")
        #expect(last?["checked_at"] as? String != nil)
        #expect(try essh(dir, ["servers", "list"]).out.contains("online"))
    }

    @Test func everyStoredStatusIsListedByItsWordInTheTableAndTheJSON() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let words: [(CheckStatus, String)] = [(.online, "online"), (.notSSH, "not-ssh"), (.refused, "refused"),
                                              (.timeout, "timed-out"), (.unreachable, "unreachable"),
                                              (.dnsError, "dns-error")]
        do {
            let inventory = try Inventory(path: dir.file("essh.db"))
            var results: [CheckResult] = []
            for (status, word) in words {
                let server = try inventory.addServer(ServerDraft(name: word, host: "h"))
                results.append(CheckResult(serverId: server.id!, status: status, latencyMs: nil, banner: nil,
                                           error: nil, checkedAt: Date().addingTimeInterval(-7_200)))
            }
            try inventory.recordCheckResults(results)
        }
        let table = try essh(dir, ["servers", "list"], env: ["NO_COLOR": ""])
        #expect(table.status == 0, "\(table.err)")
        let lines = table.out.split(separator: "\n").map(String.init)
        for (_, word) in words {
            let line = lines.first { $0.hasPrefix(word + " ") } ?? ""
            #expect(line.hasSuffix(" \(word) 2h ago"), "\(table.out)")
        }
        let list = try essh(dir, ["servers", "list", "--json"])
        let object = try JSONSerialization.jsonObject(with: list.stdout) as? [String: Any]
        let servers = object?["servers"] as? [[String: Any]] ?? []
        #expect(servers.count == words.count)
        for server in servers {
            let last = server["last_check"] as? [String: Any]
            #expect(last?["status"] as? String == server["name"] as? String)
        }
    }

    @Test func namesAndTagsSelectServersAndAllOnlineExitsZero() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let ssh = try LoopbackListener(.sends("SSH-2.0-Sel"))
        defer { ssh.close() }
        let closed = try LoopbackListener.closedPort()
        try add(dir, "a", "127.0.0.1", ssh.port, tags: ["good"])
        try add(dir, "b", "127.0.0.1", ssh.port, tags: ["good"])
        try add(dir, "c", "127.0.0.1", closed)
        let byTag = try essh(dir, ["check", "--json", "tag:good"])
        #expect(byTag.status == 0, "\(byTag.err)")
        #expect(Set(try results(byTag).keys) == ["a", "b"])
        let byName = try essh(dir, ["check", "--json", "c", "a", "tag:good"])
        #expect(byName.status == 1)
        #expect(try results(byName).count == 3)
        let all = try essh(dir, ["check", "--json"])
        #expect(try results(all).count == 3)
    }

    @Test func theTableIsPlainWhenStdoutIsNotATerminal() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let ssh = try LoopbackListener(.sends("SSH-2.0-Plain"))
        defer { ssh.close() }
        try add(dir, "up", "127.0.0.1", ssh.port)
        try add(dir, "down", "127.0.0.1", try LoopbackListener.closedPort())
        let r = try essh(dir, ["check", "--timeout", "1"], env: ["NO_COLOR": ""])
        #expect(r.status == 1)
        #expect(r.out.hasPrefix("NAME"))
        #expect(r.out.contains("SSH-2.0-Plain"))
        #expect(r.out.contains("refused"))
        #expect(r.out.contains("1 of 2 online"))
        #expect(!r.out.contains("\u{1B}"), "no escape codes in a pipe")
        #expect(r.err.isEmpty, "no progress when stderr is not a terminal: \(r.err)")
    }

    @Test func badSelectionsAndOptionsFailClearly() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let empty = try essh(dir, ["check"])
        #expect(empty.status == 2 && empty.err.contains("No saved servers"))
        try add(dir, "a", "127.0.0.1", 22)
        let cases: [([String], String)] = [
            (["check", "tag:none"], "No saved server has the tag 'none'"),
            (["check", "--timeout", "0"], "--timeout"),
            (["check", "--timeout", "soon"], "timeout"),
            (["check", "--concurrency", "0"], "--concurrency"),
            (["check", "web:http"], "neither a saved server nor a HOST[:PORT]"),
            (["check", "[::1"], "neither a saved server nor a HOST[:PORT]"),
        ]
        for (args, message) in cases {
            let r = try essh(dir, args)
            #expect(r.status != 0 && r.status != 1, "\(args): \(r.status)")
            #expect(r.err.contains(message), "\(args): \(r.err)")
        }
    }

    /// A word that is no saved server is checked as an unsaved host (`HOST[:PORT]`, `[v6]:port`), with nothing
    /// stored and no database created; a mistyped name says it is no saved server either.
    @Test func anUnsavedHostIsCheckedWithoutCreatingOrStoringAnything() throws {
        let servers = try TestServers.require()
        let dir = try TempDir()
        defer { dir.cleanup() }
        let closed = try LoopbackListener.closedPort()
        var args = ["check", "--json", "--timeout", "2", "\(servers.host):\(servers.port)", "127.0.0.1:\(closed)"]
        if servers.hasIPv6 { args.append("[::1]:\(servers.port)") }
        let r = try essh(dir, args)
        #expect(r.status == 1, "one of them is closed: \(r.err)")
        let byName = try results(r)
        let online = try #require(byName["\(servers.host):\(servers.port)"])
        #expect(online["status"] as? String == "online" && online["port"] as? Int == servers.port)
        #expect((online["banner"] as? String)?.hasPrefix("SSH-2.0-OpenSSH") == true)
        #expect(byName["127.0.0.1:\(closed)"]?["status"] as? String == "refused")
        if servers.hasIPv6 {
            let v6 = try #require(byName["[::1]:\(servers.port)"])
            #expect(v6["status"] as? String == "online" && v6["host"] as? String == "::1", "\(v6)")
        }
        #expect(!FileManager.default.fileExists(atPath: dir.file("essh.db")), "checking unsaved hosts creates nothing")

        // Beside saved servers: their results are stored, the unsaved host's are not.
        try add(dir, "harness", servers.host, servers.port)
        let mixed = try essh(dir, ["check", "--json", "harness", "127.0.0.1:\(servers.port)"])
        #expect(mixed.status == 0, "\(mixed.err)")
        #expect(try results(mixed).count == 2)
        let shown = try essh(dir, ["servers", "show", "harness", "--json"])
        let object = try JSONSerialization.jsonObject(with: shown.stdout) as? [String: Any]
        #expect((object?["last_check"] as? [String: Any])?["status"] as? String == "online")

        let typo = try essh(dir, ["check", "--json", "--timeout", "2", "harnes"])
        #expect(typo.status == 1)
        let missed = try #require(try results(typo)["harnes"])
        #expect(missed["status"] as? String == "dns-error")
        #expect((missed["error"] as? String)?.contains("no saved server is named 'harnes'") == true, "\(missed)")
    }

    @Test func theRealSSHDIsOnline() throws {
        let servers = try TestServers.require()
        let dir = try TempDir()
        defer { dir.cleanup() }
        try add(dir, "harness", servers.host, servers.port)
        let r = try essh(dir, ["check", "--json", "harness"])
        #expect(r.status == 0, "\(r.out) \(r.err)")
        #expect((try results(r)["harness"]?["banner"] as? String)?.hasPrefix("SSH-2.0-OpenSSH") == true)
    }
}
