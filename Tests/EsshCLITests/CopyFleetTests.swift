import Foundation
import Testing
import TestSupport

/// `essh cp` to and from several servers: alpha (127.0.0.2) and beta (127.0.0.3) are the harness's sshd, gamma a
/// closed port. Both real servers are this machine with the one test user, so a push writes the same path twice:
/// the fleet runs one server at a time (`fleet.parallel 1`) so the two copies do not share a temporary name.
@Suite(.serialized) struct CopyFleetTests {
    func saveFleet(_ f: CopyFixture) throws {
        let closed = try LoopbackListener.closedPort()
        for (name, host, port) in [("alpha", "127.0.0.2", f.s.port), ("beta", "127.0.0.3", f.s.port),
                                   ("gamma", "127.0.0.1", closed)] {
            let r = try Binary.runEssh(["servers", "add", name, "--host", host, "--port", "\(port)", "--user", f.s.user,
                                        "--key", f.s.key("id_ed25519"), "--tag", "web"], environment: f.environment)
            #expect(r.status == 0, "\(r.err)")
        }
        #expect(try Binary.runEssh(["config", "set", "fleet.parallel", "1"], environment: f.environment).status == 0)
    }

    func fleet(_ f: CopyFixture, _ args: [String]) throws -> RunResult {
        try Binary.runEssh(["cp", "--known-hosts", f.s.knownHosts] + args, environment: f.environment)
    }

    @Test func aPushReachesTheServersThatAnswerWithChecksumsAndSaysWhichDidNot() throws {
        let f = try CopyFixture()
        defer { f.cleanup() }
        try saveFleet(f)
        let bytes = CopyFixture.random(300_000, seed: 5)
        try CopyFixture.write(f.dir.file("app.conf"), bytes)
        let r = try fleet(f, ["--tag", "web", "--checksum", f.dir.file("app.conf"), ":\(f.remote)/"])
        #expect(r.status == 1, "\(r.err)")
        #expect(CopyFixture.holds(f.remote + "/app.conf", bytes))
        // One group for the two that have the same file, with its sha256; gamma on its own, refused.
        let sha = try #require(Binary.run("/usr/bin/sha256sum", [f.dir.file("app.conf")]).out.split(separator: " ").first)
        #expect(r.out.contains("== alpha, beta (2 servers) · ok (exit 0)\n\(sha)  \(f.remote)/app.conf\n"), "\(r.out)")
        #expect(r.out.contains("== gamma · refused"), "\(r.out)")
        #expect(r.err.contains("3 servers") && r.err.contains("2 ok"), "\(r.err)")
        // --json: a line per file per server, and one for the server that could not be reached.
        let json = try fleet(f, ["--tag", "web", "--checksum", "--json", f.dir.file("app.conf"), ":\(f.remote)/"])
        #expect(json.status == 1)
        let lines = CopyFixture.jsonLines(json)
        let copied = lines.filter { $0["status"] as? String == "copied" }
        #expect(Set(copied.compactMap { $0["server"] as? String }) == ["alpha", "beta"], "\(json.out)")
        #expect(copied.allSatisfy { $0["sha256"] as? String == String(sha) }, "\(json.out)")
        #expect(lines.contains { $0["server"] as? String == "gamma" && $0["status"] as? String == "refused" },
                "\(json.out)")
    }

    @Test func aPullWritesAFolderPerServer() throws {
        let f = try CopyFixture()
        defer { f.cleanup() }
        try saveFleet(f)
        try CopyFixture.write(f.remote + "/os-release", Array("NAME=test\n".utf8))
        try f.own(f.remote + "/os-release")
        let collected = f.dir.file("collected")
        let r = try fleet(f, ["alpha,beta", ":\(f.remote)/os-release", collected + "/"])
        #expect(r.status == 0, "\(r.err)")
        for name in ["alpha", "beta"] {
            #expect(CopyFixture.holds(collected + "/\(name)/os-release", Array("NAME=test\n".utf8)), "\(name)")
        }
        #expect(r.out.contains("ok  \(f.remote)/os-release"), "\(r.out)")
        let down = try fleet(f, ["--tag", "web", ":\(f.remote)/os-release", collected])
        #expect(down.status == 1 && down.out.contains("gamma · refused"), "\(down.out)")
        #expect(CopyFixture.stat(collected + "/gamma/os-release") == nil)
    }
}
