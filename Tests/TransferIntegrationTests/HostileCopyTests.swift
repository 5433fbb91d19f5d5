import Foundation
import SSH
import Testing
import TestSupport
import Transfer

/// Issue 27 against a real SSH server whose SFTP answers the test scripts (TestSupport's HostileSFTPServer): a
/// server's names are data, never paths; nothing is written through a link, whoever made it; a folder that holds
/// itself stops at the depth limit; a resumed copy keeps only a prefix it proved, by reading it back where the server
/// runs no command.
@Suite(.serialized) struct HostileCopyTests {
    typealias Entry = HostileSFTPServer.Entry

    /// Every path below `folder` (relative, sorted), links not followed.
    static func everything(below folder: String) -> [String] {
        var out: [String] = []
        guard let walker = FileManager.default.enumerator(atPath: folder) else { return [] }
        while let next = walker.nextObject() as? String { out.append(next) }
        return out.sorted()
    }

    static func bytes(_ s: String) -> [UInt8] { Array(s.utf8) }

    /// `cp -r` of the server's `tree` into a new folder here.
    static func downloadTree(from server: HostileSFTPServer) throws -> (TempDir, TransferSummary) {
        let c = try HostileConnection(server)
        let here = try TempDir()
        let summary = Transfer.run(request(.download, [bytes("tree")], bytes(here.path + "/")) {
            $0.recursive = true
        }, remote: c.remote) { _ in }
        return (here, summary)
    }

    @Test(.timeLimit(.minutes(1)))
    func namesThatAreNotOneFileNameAreRefusedAndNothingLandsOutsideTheCopy() throws {
        let outside = "/tmp/essh-hostile-\(UUID().uuidString)"
        let server = try HostileSFTPServer(.init([
            .folder("tree", [
                .file("ok.txt", "hello\n"),
                .file("../escape", "one up"),
                .file("../../escape2", "two up"),
                .file("a/b", "slash"),
                .file(HostileSFTPServer.Name(outside), "absolute"),
                .file("", "empty"),
                .file(".", "dot"),
                .file(.bytes([0x6E, 0x00, 0x75, 0x6C]), "nul"),
                .file(.bytes([UInt8](repeating: 0x6C, count: 300)), "long"),
                .folder("sub", [.file("../../../escape3", "deep"), .file("fine", "fine")]),
            ]),
        ]))
        defer { server.stop() }
        let c = try HostileConnection(server)
        let jail = try TempDir()
        defer { jail.cleanup() }
        let destination = jail.file("dest")
        try FileManager.default.createDirectory(atPath: destination, withIntermediateDirectories: false)
        let summary = Transfer.run(request(.download, [Self.bytes("tree")], Self.bytes(destination + "/")) {
            $0.recursive = true
        }, remote: c.remote) { _ in }
        #expect(summary.problem == nil, "\(String(describing: summary.problem))")
        #expect(Self.everything(below: jail.path) == ["dest", "dest/tree", "dest/tree/ok.txt", "dest/tree/sub",
                                                      "dest/tree/sub/fine"], "server: \(server.errors)")
        #expect(FileManager.default.fileExists(atPath: outside) == false)
        #expect(FileManager.default.fileExists(atPath: "/tmp/escape2") == false)
        let refusals = summary.outcomes.compactMap { outcome -> String? in
            if case .failed(let reason) = outcome.status { return reason }
            return nil
        }
        #expect(refusals.count == 8, "\(refusals)")
        // A listed “.” is the folder itself to every SFTP client: it is passed over like the usual one.
        for shown in ["“../escape”", "“../../escape2”", "“a/b”", "“\(outside)”", "an empty name",
                      "NUL byte", "300 bytes", "“../../../escape3”"] {
            #expect(refusals.contains { $0.contains(shown) && $0.contains("hostile listed") }, "\(shown): \(refusals)")
        }
        #expect(!summary.allArrived)
    }

    @Test(.timeLimit(.minutes(1)))
    func aNameListedTwiceOrALinkIsNeverWrittenThrough() throws {
        let victim = try TempDir()
        defer { victim.cleanup() }
        let server = try HostileSFTPServer(.init([
            .folder("tree", [
                // The same name twice: a link out of the tree first, then a folder whose file would go through it.
                .symlink("twice", to: HostileSFTPServer.Name(victim.path)),
                .folder("twice", [.file("planted", "through the link")]),
                // A link leaving the tree, and a folder beside it.
                .symlink("out", to: HostileSFTPServer.Name(victim.path)),
                .folder("sub", [.file("g", "g")]),
            ]),
        ]))
        defer { server.stop() }
        let (here, summary) = try Self.downloadTree(from: server)
        defer { here.cleanup() }
        #expect(Self.everything(below: victim.path).isEmpty, "written through a link: \(Self.everything(below: victim.path))")
        #expect(Self.everything(below: here.path) == ["tree", "tree/out", "tree/sub", "tree/sub/g"])
        var st = stat()
        #expect(lstat(here.file("tree/out"), &st) == 0 && st.st_mode & S_IFMT == S_IFLNK, "the link is recreated")
        let twice = summary.outcomes.filter { String(decoding: $0.source, as: UTF8.self).hasSuffix("twice") }
        #expect(twice.count == 1 && twice.allSatisfy {
            if case .failed(let reason) = $0.status { return reason.contains("more than once") }
            return false
        }, "\(twice)")
    }

    @Test(.timeLimit(.minutes(1)))
    func aFolderThatHoldsItselfStopsAtTheDepthLimitAndTheRestIsCopied() throws {
        let server = try HostileSFTPServer(.init([
            .folder("tree", [.loop("loop"), .file("ok.txt", "fine\n")]),
        ]))
        defer { server.stop() }
        let (here, summary) = try Self.downloadTree(from: server)
        defer { here.cleanup() }
        #expect(summary.problem == nil)
        #expect(FileManager.default.contents(atPath: here.file("tree/ok.txt")) == Data("fine\n".utf8))
        let deep = summary.outcomes.filter {
            if case .failed(let reason) = $0.status { return reason.contains("more than 64 folders deep") }
            return false
        }
        #expect(deep.count == 1, "\(summary.outcomes.map(\.status))")
        let opened = server.requests.filter { $0.hasPrefix("OPENDIR") }.count
        #expect(opened <= TransferPlanner.maxDepth + 3, "\(opened) folders listed")
    }

    /// The server runs no command (no sha256sum): a kept prefix is read back and compared byte for byte; a prefix
    /// with its second byte changed is found, the copy starts over, and the file that arrives is the source.
    @Test(.timeLimit(.minutes(1)))
    func withoutACommandTheKeptPrefixIsReadBackAndComparedWhole() throws {
        let size = 3 << 20
        let fill = Array("0123456789abcdef".utf8)
        let source = (0..<size).map { fill[$0 % fill.count] }
        let server = try HostileSFTPServer(.init([.file("big", size: UInt64(size), fill: fill)]))
        defer { server.stop() }
        let c = try HostileConnection(server)
        let here = try TempDir()
        defer { here.cleanup() }
        let info = try #require(try c.remote.info(Self.bytes("big")))
        let partial = here.file(String(decoding: PartialName.name(
            for: Self.bytes("big"), sourcePath: Self.bytes("big"), size: info.size, modified: info.modified),
            as: UTF8.self))
        var spoiled = Array(source[..<(1 << 20)])
        spoiled[1] ^= 0xFF
        try writeLocal(Array(partial.utf8), spoiled, mode: 0o600)
        let first = Transfer.run(request(.download, [Self.bytes("big")], Self.bytes(here.path + "/")) {
            $0.resume = true
        }, remote: c.remote) { _ in }
        let restarted = try #require(first.outcomes.first)
        #expect(first.allArrived, "\(first)")
        #expect(restarted.resumedFrom == nil && restarted.resumeProof == .readBack)
        #expect(restarted.restartReason == "the partial copy differs from the source at byte 2")
        #expect(readLocal(Array(here.file("big").utf8)) == source)
        // A true prefix is kept: 1 MiB read back, 2 MiB sent.
        try FileManager.default.removeItem(atPath: here.file("big"))
        try writeLocal(Array(partial.utf8), Array(source[..<(1 << 20)]), mode: 0o600)
        let second = Transfer.run(request(.download, [Self.bytes("big")], Self.bytes(here.path + "/")) {
            $0.resume = true
        }, remote: c.remote) { _ in }
        let resumed = try #require(second.outcomes.first)
        #expect(resumed.resumedFrom == 1 << 20 && resumed.resumeProof == .readBack && resumed.bytesSent == 2 << 20)
        #expect(readLocal(Array(here.file("big").utf8)) == source)
    }
}
