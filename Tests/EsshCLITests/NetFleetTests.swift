import Foundation
import Testing
import TestSupport

/// `essh net --tag TAG KIND`: the quick command on several servers through the fleet path, against the real sshd on
/// three loopback addresses and a closed port.
@Suite struct NetFleetTests {
    private func essh(_ dir: TempDir, _ args: [String]) throws -> RunResult {
        try Binary.runEssh(args, environment: ["ESSH_DB": dir.file("essh.db"), "HOME": dir.path], timeout: 60)
    }

    /// web1..web3 (the real sshd on 127.0.0.1-3, tag web) and `closed` (nothing listens; tags web and bad).
    private func fleet(_ s: TestServers, _ dir: TempDir) throws {
        for i in 1...3 {
            let r = try essh(dir, ["servers", "add", "web\(i)", "--host", "127.0.0.\(i)", "--port", String(s.port),
                                   "--user", s.user, "--key", s.key("id_ed25519"), "--tag", "web", "--tag", "all"])
            #expect(r.status == 0, "\(r.err)")
        }
        let r = try essh(dir, ["servers", "add", "closed", "--host", "127.0.0.1",
                               "--port", String(try LoopbackListener.closedPort()), "--user", s.user,
                               "--key", s.key("id_ed25519"), "--tag", "all"])
        #expect(r.status == 0, "\(r.err)")
    }

    private func results(_ r: RunResult) throws -> [String: [String: Any]] {
        let object = try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any]
        let list = object?["results"] as? [[String: Any]] ?? []
        return Dictionary(uniqueKeysWithValues: list.map { ($0["name"] as? String ?? "", $0) })
    }

    @Test func aTagRunsTheQuickCommandOnEachServerIntoOneTable() throws {
        let s = try TestServers.require()
        let dir = try TempDir()
        defer { dir.cleanup() }
        try fleet(s, dir)
        let r = try essh(dir, ["net", "--tag", "web", "--known-hosts", s.knownHosts, "interfaces"])
        #expect(r.status == 0, "\(r.err)")
        let lines = r.out.split(separator: "\n")
        #expect(lines.first?.hasPrefix("SERVER  DEVICE") == true, "\(r.out)")
        for name in ["web1", "web2", "web3"] {
            #expect(lines.contains { $0.hasPrefix(name + " ") && $0.contains("127.0.0.1") }, "\(name) lo in:\n\(r.out)")
        }
        #expect(r.err.contains("3 servers: 3 ok in "), "\(r.err)")
        // The detected system and the connection are stored, as `essh net DEST` does.
        let shown = try essh(dir, ["servers", "show", "web2", "--json"])
        let object = try JSONSerialization.jsonObject(with: shown.stdout) as? [String: Any]
        #expect(object?["os"] as? String == "linux" && !(object?["last_connected"] is NSNull), "\(shown.out)")
    }

    @Test func jsonHasEachServersItemsAndAFailedServerSaysWhy() throws {
        let s = try TestServers.require()
        let dir = try TempDir()
        defer { dir.cleanup() }
        try fleet(s, dir)
        let r = try essh(dir, ["net", "--tag", "all", "--known-hosts", s.knownHosts, "--json", "--parallel", "2",
                               "--timeout", "20", "routes"])
        #expect(r.status == 1, "one server is closed: \(r.err)")
        let byName = try results(r)
        #expect(byName.count == 4)
        for name in ["web1", "web2", "web3"] {
            let result = try #require(byName[name])
            #expect(result["status"] as? String == "ok" && result["os"] as? String == "linux", "\(result)")
            #expect((result["command"] as? String)?.isEmpty == false && result["error"] is NSNull)
            let routes = result["routes"] as? [[String: Any]] ?? []
            #expect(!routes.isEmpty, "\(name) has routes")
            #expect(routes.allSatisfy { $0["destination"] is String && $0.keys.contains("src") })
        }
        let closed = try #require(byName["closed"])
        #expect(closed["status"] as? String == "refused" && closed["routes"] is NSNull, "\(closed)")
        #expect((closed["error"] as? String)?.isEmpty == false)
        #expect(r.err.contains("closed: essh: "), "\(r.err)")
        #expect(r.err.contains("4 servers: 3 ok, 1 refused"), "\(r.err)")
    }

    @Test func namesAndBadCombinationsAreRefusedClearly() throws {
        let s = try TestServers.require()
        let dir = try TempDir()
        defer { dir.cleanup() }
        try fleet(s, dir)
        let names = try essh(dir, ["net", "--known-hosts", s.knownHosts, "web1,web3", "sockets"])
        #expect(names.status == 0, "\(names.err)")
        #expect(names.out.hasPrefix("SERVER  PROTO"), "\(names.out)")
        #expect(names.out.contains("web3 ") && !names.out.contains("web2 "))
        let cases: [([String], String)] = [
            (["net", "--tag", "web"], "Say what to show"),
            (["net", "--tag", "web", "web1", "routes"], "give only what to show"),
            (["net", "--tag", "web", "--exclude", "nothing", "routes"], "'!nothing' excludes nothing"),
            (["net", "--tag", "web", "--raw", "routes"], "--raw is for one server"),
            (["net", "--tag", "nothing", "routes"], "No saved server has the tag 'nothing'"),
            (["net", "web1", "routes", "--parallel", "2"], "--parallel is for several servers"),
        ]
        for (args, message) in cases {
            let r = try essh(dir, args)
            #expect(r.status != 0, "\(args)")
            #expect(r.err.contains(message), "\(args): \(r.err)")
        }
    }
}
