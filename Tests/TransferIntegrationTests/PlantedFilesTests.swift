import Foundation
import SSH
import Testing
import TestSupport
import Transfer

/// Issue 27 §2 and §3 on this machine's side, against the harness's sshd: a device, FIFO or link at a destination is
/// never replaced nor written through; a partial another user planted (a link to a victim file) is never opened; a
/// link planted where a folder of a recursive download goes stops that folder, not the copy; --resume proves the
/// whole kept prefix, so a byte changed at its start is found.
@Suite(.serialized) struct PlantedFilesTests {
    func remoteFile(_ sandbox: RemoteSandbox, _ name: String, _ bytes: [UInt8]) throws -> [UInt8] {
        let scratch = sandbox.localPath("scratch-\(UUID().uuidString)")
        try writeLocal(scratch, bytes)
        let path = sandbox.remotePath(name)
        let s = Transfer.run(request(.upload, [scratch], path), remote: sandbox.remote) { _ in }
        #expect(s.allArrived, "\(s)")
        return path
    }

    func failure(_ summary: TransferSummary) -> String? {
        for outcome in summary.outcomes {
            if case .failed(let reason) = outcome.status { return reason }
        }
        return nil
    }

    @Test(.timeLimit(.minutes(1)))
    func aDeviceOrAFIFOAtTheDestinationIsNeverReplaced() throws {
        let sandbox = try RemoteSandbox()
        let source = try remoteFile(sandbox, "f", Array("from the server\n".utf8))
        let device = sandbox.local.file("null"), fifo = sandbox.local.file("fifo")
        // The same device as /dev/null (major 1, minor 3), made in the test's own folder.
        #expect(mknod(device, S_IFCHR | 0o666, 0x103) == 0)
        #expect(mkfifo(fifo, 0o600) == 0)
        for (path, words) in [(device, "is a device"), (fifo, "is a FIFO")] {
            let summary = Transfer.run(request(.download, [source], Array(path.utf8)), remote: sandbox.remote) { _ in }
            #expect(!summary.allArrived)
            #expect(failure(summary)?.contains(words) == true, "\(String(describing: failure(summary)))")
            var st = stat()
            #expect(lstat(path, &st) == 0 && (st.st_mode & S_IFMT == S_IFCHR || st.st_mode & S_IFMT == S_IFIFO),
                    "\(path) is still what it was")
        }
        // No partial is left beside them.
        #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.local.path).sorted()
                .filter { !$0.hasPrefix("scratch-") } == ["fifo", "null"])
    }

    @Test(.timeLimit(.minutes(1)))
    func aLinkAtTheDestinationIsNotReplacedNorWrittenThrough() throws {
        let sandbox = try RemoteSandbox()
        let source = try remoteFile(sandbox, "f", Array("from the server\n".utf8))
        let victim = try TempDir()
        defer { victim.cleanup() }
        try writeLocal(Array(victim.file("precious").utf8), Array("precious\n".utf8))
        let link = sandbox.local.file("f")
        #expect(symlink(victim.file("precious"), link) == 0)
        let summary = Transfer.run(request(.download, [source], Array(sandbox.local.path.utf8)),
                                   remote: sandbox.remote) { _ in }
        #expect(failure(summary)?.contains("is a symbolic link") == true, "\(summary)")
        #expect(readLocal(Array(victim.file("precious").utf8)) == Array("precious\n".utf8))
        var st = stat()
        #expect(lstat(link, &st) == 0 && st.st_mode & S_IFMT == S_IFLNK)
    }

    /// Another user who can write the destination folder plants the partial's name as a link to a victim file:
    /// the copy neither writes through it nor, with --resume, reads it as a prefix; it arrives under another name.
    @Test(.timeLimit(.minutes(1)))
    func aPlantedPartialIsNeverOpened() throws {
        let sandbox = try RemoteSandbox()
        let bytes = randomBytes(300_000, seed: 31)
        let source = try remoteFile(sandbox, "f", bytes)
        let victim = try TempDir()
        defer { victim.cleanup() }
        let precious = Array("precious\n".utf8)
        try writeLocal(Array(victim.file("precious").utf8), precious)
        let info = try #require(try sandbox.remote.info(source))
        let partial = sandbox.local.file(String(decoding: PartialName.name(
            for: Array("f".utf8), sourcePath: source, size: info.size, modified: info.modified), as: UTF8.self))
        for resume in [false, true] {
            try? FileManager.default.removeItem(atPath: sandbox.local.file("f"))
            #expect(symlink(victim.file("precious"), partial) == 0 || errno == EEXIST)
            let summary = Transfer.run(request(.download, [source], Array(sandbox.local.path.utf8)) {
                $0.resume = resume
            }, remote: sandbox.remote) { _ in }
            #expect(summary.allArrived, "\(summary)")
            #expect(readLocal(Array(victim.file("precious").utf8)) == precious, "written through the planted link")
            #expect(readLocal(Array(sandbox.local.file("f").utf8)) == bytes)
            if resume {
                let why = summary.outcomes.first?.restartReason ?? ""
                #expect(why.contains("is a symbolic link") && why.contains("not opened"), "\(why)")
            }
            var st = stat()
            #expect(lstat(partial, &st) == 0 && st.st_mode & S_IFMT == S_IFLNK, "the planted link is left alone")
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aLinkPlantedWhereAFolderGoesStopsThatFolderOnly() throws {
        let sandbox = try RemoteSandbox()
        try sandbox.remote.makeDirectory(sandbox.remotePath("tree"))
        try sandbox.remote.makeDirectory(sandbox.remotePath("tree/sub"))
        _ = try remoteFile(sandbox, "tree/sub/g", Array("g\n".utf8))
        _ = try remoteFile(sandbox, "tree/ok", Array("ok\n".utf8))
        let victim = try TempDir()
        defer { victim.cleanup() }
        let here = sandbox.local.file("down")
        try FileManager.default.createDirectory(atPath: here + "/tree", withIntermediateDirectories: true)
        #expect(symlink(victim.path, here + "/tree/sub") == 0)
        let summary = Transfer.run(request(.download, [sandbox.remotePath("tree")], Array(here.utf8)) {
            $0.recursive = true
        }, remote: sandbox.remote) { _ in }
        #expect(try FileManager.default.contentsOfDirectory(atPath: victim.path).isEmpty)
        #expect(readLocal(Array((here + "/tree/ok").utf8)) == Array("ok\n".utf8))
        #expect(failure(summary)?.contains("not a folder") == true, "\(summary)")
    }

    /// The adversarial pass's case: one byte changed near the start of a 1 MB partial was kept and the rest
    /// appended (only the last 64 KiB were compared). Now the whole prefix is proven.
    @Test(.timeLimit(.minutes(1)))
    func aByteChangedAtThePartialsStartIsFoundAndTheCopyStartsOver() throws {
        let sandbox = try RemoteSandbox()
        let bytes = randomBytes(3_000_000, seed: 32)
        let source = try remoteFile(sandbox, "big", bytes)
        let info = try #require(try sandbox.remote.info(source))
        let partial = sandbox.local.file(String(decoding: PartialName.name(
            for: Array("big".utf8), sourcePath: source, size: info.size, modified: info.modified), as: UTF8.self))
        var spoiled = Array(bytes[..<1_000_000])
        spoiled[10] ^= 0x01
        try writeLocal(Array(partial.utf8), spoiled, mode: 0o600)
        let summary = Transfer.run(request(.download, [source], Array(sandbox.local.path.utf8)) { $0.resume = true },
                                   remote: sandbox.remote) { _ in }
        let outcome = try #require(summary.outcomes.first)
        #expect(summary.allArrived)
        #expect(outcome.resumedFrom == nil && outcome.resumeProof == .sha256 && outcome.bytesSent == 3_000_000)
        #expect(outcome.restartReason?.contains("differs from the source") == true)
        #expect(readLocal(Array(sandbox.local.file("big").utf8)) == bytes)
        // A true prefix is kept and proven the same way.
        try FileManager.default.removeItem(atPath: sandbox.local.file("big"))
        try writeLocal(Array(partial.utf8), Array(bytes[..<1_000_000]), mode: 0o600)
        let again = Transfer.run(request(.download, [source], Array(sandbox.local.path.utf8)) { $0.resume = true },
                                 remote: sandbox.remote) { _ in }
        #expect(again.outcomes.first?.resumedFrom == 1_000_000 && again.outcomes.first?.resumeProof == .sha256)
        #expect(readLocal(Array(sandbox.local.file("big").utf8)) == bytes)
    }
}
