import Foundation
import Testing
import TestSupport

/// `essh cp -r` from a server that lies (issue 27): a real SSH server whose SFTP listings the test scripts
/// (TestSupport's HostileSFTPServer). Whatever it lists, nothing is made outside the destination, nothing is written
/// through a link, each refused name is said (shown safely) and the command ends with 1; the same for a fleet pull.
@Suite(.serialized) struct CopyHostileTests {
    static let outside = "/tmp/essh-cli-hostile-\(UUID().uuidString.prefix(8))"

    /// A victim folder outside every destination, the hostile server serving `scenario(victim:)`, and a home with
    /// its own database.
    final class Setup {
        let victim: TempDir
        let server: HostileSFTPServer
        let home: TempDir
        var environment: [String: String] { ["ESSH_DB": home.file("essh.db"), "HOME": home.path] }
        init() throws {
            victim = try TempDir()
            server = try HostileSFTPServer(CopyHostileTests.scenario(victim: victim.path))
            home = try TempDir()
        }
        deinit {
            server.stop()
            victim.cleanup()
            home.cleanup()
        }
        /// Nothing reached the victim folder, the absolute name or a folder above the destination.
        func nothingOutside(_ r: RunResult) {
            #expect(CopyHostileTests.everything(below: victim.path).isEmpty, "\(r.err)")
            #expect(!FileManager.default.fileExists(atPath: CopyHostileTests.outside))
        }
    }

    static func scenario(victim: String) -> HostileSFTPServer.Scenario {
        .init([
            .folder("tree", [
                .file("ok.txt", "hello\n"),
                .file("../../escape", "two up"),
                .file(HostileSFTPServer.Name(outside), "absolute"),
                .file(.bytes(Array("\u{1B}[31mred/x".utf8)), "a terminal escape and a slash"),
                .symlink("twice", to: HostileSFTPServer.Name(victim)),
                .folder("twice", [.file("planted", "through the link")]),
                .loop("loop"),
            ]),
        ])
    }

    /// Every path below `folder` but the looping folder's levels (made, empty, down to the depth limit).
    static func withoutLoop(below folder: String) -> [String] {
        everything(below: folder).filter { !$0.contains("/loop") }
    }

    /// How many `loop` levels were made.
    static func loopLevels(below folder: String) -> Int {
        everything(below: folder).map { $0.components(separatedBy: "/").filter { $0 == "loop" }.count }.max() ?? 0
    }

    static func everything(below folder: String) -> [String] {
        var out: [String] = []
        guard let walker = FileManager.default.enumerator(atPath: folder) else { return [] }
        while let next = walker.nextObject() as? String { out.append(next) }
        return out.sorted()
    }

    @Test(.timeLimit(.minutes(2))) func aRecursiveDownloadRefusesWhatIsNotAFileNameAndWritesNothingOutside() throws {
        let t = try Setup()
        let jail = t.home.file("jail")
        try FileManager.default.createDirectory(atPath: jail + "/dest", withIntermediateDirectories: true)
        let r = try Binary.runEssh(["cp", "-r", "--known-hosts", t.server.knownHostsFile, "-i", t.server.clientKey,
                                    "-P", String(t.server.port), "anyone@127.0.0.1:tree", jail + "/dest/"],
                                   environment: t.environment, timeout: 60)
        #expect(r.status == 1, "\(r.err)")
        #expect(Self.withoutLoop(below: jail) == ["dest", "dest/tree", "dest/tree/ok.txt"], "\(r.err)")
        #expect(Self.loopLevels(below: jail) == 64, "the loop is walked 64 folders deep, no further")
        t.nothingOutside(r)
        for said in ["“../../escape”", "“\(Self.outside)”", "more than once", "more than 64 folders deep"] {
            #expect(r.err.contains(said), "\(said): \(r.err)")
        }
        // A name's terminal escape is shown, never sent to the terminal.
        #expect(!r.err.contains("\u{1B}") && r.err.contains("\\x1B[31mred/x"), "\(r.err)")
    }

    @Test(.timeLimit(.minutes(2))) func aFleetPullFromALyingServerStaysInItsServersFolder() throws {
        let t = try Setup()
        let added = try Binary.runEssh(["servers", "add", "evil", "--host", "127.0.0.1", "--port",
                                        String(t.server.port), "--user", "anyone", "--key", t.server.clientKey,
                                        "--tag", "lab"], environment: t.environment)
        #expect(added.status == 0, "\(added.err)")
        let collected = t.home.file("collected")
        try FileManager.default.createDirectory(atPath: collected, withIntermediateDirectories: false)
        let r = try Binary.runEssh(["cp", "-r", "--known-hosts", t.server.knownHostsFile, "--tag", "lab", ":tree",
                                    collected + "/"], environment: t.environment, timeout: 60)
        #expect(r.status == 1, "\(r.out)\n\(r.err)")
        #expect(Self.withoutLoop(below: collected) == ["evil", "evil/tree", "evil/tree/ok.txt"], "\(r.out)\n\(r.err)")
        t.nothingOutside(r)
        #expect(!FileManager.default.fileExists(atPath: t.home.file("escape")))
        #expect((r.out + r.err).contains("“../../escape”"), "\(r.out)\n\(r.err)")
    }
}
