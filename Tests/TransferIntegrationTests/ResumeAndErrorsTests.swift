import Foundation
import Synchronization
import SSH
import Testing
import TestSupport
import Transfer

/// --resume, cancel, permission denied, disk full, scp's rules on the real server.
@Suite(.serialized) struct ResumeAndErrorsTests {
    /// The partial's remote path for a local `source` copied to `destination`.
    func partial(of source: [UInt8], at destination: [UInt8]) throws -> [UInt8] {
        let info = try #require(try LocalFiles().info(source))
        return PathBytes.join(PathBytes.directoryName(destination), PartialName.name(
            for: PathBytes.baseName(destination), sourcePath: source, size: info.size, modified: info.modified))
    }

    /// Puts `bytes` at a remote path by uploading them from a scratch file and renaming.
    func putRemote(_ sandbox: RemoteSandbox, _ bytes: [UInt8], at path: [UInt8]) throws {
        let scratch = sandbox.localPath("scratch-\(UUID().uuidString)")
        try writeLocal(scratch, bytes)
        let tmp = sandbox.remotePath("scratch-\(UUID().uuidString)")
        let s = Transfer.run(request(.upload, [scratch], tmp), remote: sandbox.remote) { _ in }
        #expect(s.allArrived)
        try sandbox.remote.rename(tmp, to: path)
    }

    @Test func anUploadResumesFromAPartialThatIsAPrefix() throws {
        let sandbox = try RemoteSandbox()
        let bytes = randomBytes(3_000_000, seed: 7)
        let source = sandbox.localPath("big")
        try writeLocal(source, bytes)
        let destination = sandbox.remotePath("big")
        try putRemote(sandbox, Array(bytes[0..<1_234_567]), at: try partial(of: source, at: destination))
        let summary = Transfer.run(request(.upload, [source], destination) { $0.resume = true },
                                   remote: sandbox.remote) { _ in }
        #expect(summary.allArrived, "\(summary)")
        let outcome = try #require(summary.outcomes.first)
        #expect(outcome.resumedFrom == 1_234_567)
        #expect(outcome.bytesSent == 3_000_000 - 1_234_567)
        #expect(try sandbox.remoteSHA(destination) == sha256Hex(bytes))
        #expect(try sandbox.remote.list(sandbox.folder).map(\.name) == [Array("big".utf8)])
    }

    @Test func aPartialWhoseTailDiffersIsNotAppendedToAndTheCopySaysWhy() throws {
        let sandbox = try RemoteSandbox()
        let bytes = randomBytes(2_000_000, seed: 8)
        let source = sandbox.localPath("big")
        try writeLocal(source, bytes)
        let destination = sandbox.remotePath("big")
        var spoiled = Array(bytes[0..<1_000_000])
        spoiled[999_000] ^= 0xFF
        try putRemote(sandbox, spoiled, at: try partial(of: source, at: destination))
        let summary = Transfer.run(request(.upload, [source], destination) { $0.resume = true },
                                   remote: sandbox.remote) { _ in }
        #expect(summary.allArrived, "\(summary)")
        let outcome = try #require(summary.outcomes.first)
        #expect(outcome.resumedFrom == nil)
        // The server runs sha256sum: the prefix is proven by digests, which differ.
        #expect(outcome.restartReason?.contains("differs from the source") == true,
                "\(String(describing: outcome.restartReason))")
        #expect(outcome.resumeProof == .sha256)
        #expect(outcome.bytesSent == 2_000_000)
        #expect(try sandbox.remoteSHA(destination) == sha256Hex(bytes))
    }

    @Test func aDownloadResumesFromALocalPartial() throws {
        let sandbox = try RemoteSandbox()
        let bytes = randomBytes(2_500_000, seed: 9)
        let remotePath = sandbox.remotePath("big")
        try putRemote(sandbox, bytes, at: remotePath)
        let info = try #require(try sandbox.remote.info(remotePath))
        let destination = sandbox.localPath("big")
        let partialPath = PathBytes.join(PathBytes.directoryName(destination), PartialName.name(
            for: Array("big".utf8), sourcePath: remotePath, size: info.size, modified: info.modified))
        try writeLocal(partialPath, Array(bytes[0..<700_000]))
        let summary = Transfer.run(request(.download, [remotePath], destination) {
            $0.resume = true
            $0.checksum = true
        }, remote: sandbox.remote) { _ in }
        #expect(summary.allArrived, "\(summary)")
        #expect(summary.outcomes.first?.resumedFrom == 700_000)
        #expect(summary.outcomes.first?.checksum == .matched(sha256: sha256Hex(bytes)))
        #expect(readLocal(destination) == bytes)
        #expect(readLocal(partialPath) == nil)
    }

    @Test func aCancelKeepsThePartialAndResumeFinishesIt() throws {
        let sandbox = try RemoteSandbox()
        let bytes = randomBytes(4_000_000, seed: 10)
        let source = sandbox.localPath("big")
        try writeLocal(source, bytes)
        let destination = sandbox.remotePath("big")
        let cancel = try Cancellation()
        let summary = Transfer.run(request(.upload, [source], destination) { $0.limit = 2_000_000 },
                                   remote: sandbox.remote, cancel: cancel) { event in
            if case .progress(let p) = event, p.fileDone > 500_000 { cancel.cancel() }
        }
        #expect(summary.problem?.kind == .cancelled)
        #expect(try sandbox.remote.info(destination) == nil)
        let kept = try #require(try sandbox.remote.info(try partial(of: source, at: destination)))
        #expect(kept.size > 0 && kept.size < 4_000_000)
        // The shared channel survived the cancelled lane.
        let resumed = Transfer.run(request(.upload, [source], destination) { $0.resume = true },
                                   remote: sandbox.remote) { _ in }
        #expect(resumed.allArrived, "\(resumed)")
        #expect(resumed.outcomes.first?.resumedFrom.map { $0 > 0 } == true)
        #expect(try sandbox.remoteSHA(destination) == sha256Hex(bytes))
    }

    @Test func aCancelWithoutKeepingRemovesThePartial() throws {
        let sandbox = try RemoteSandbox()
        let source = sandbox.localPath("big")
        try writeLocal(source, randomBytes(3_000_000, seed: 11))
        let destination = sandbox.remotePath("big")
        let cancel = try Cancellation()
        let summary = Transfer.run(request(.upload, [source], destination) {
            $0.limit = 2_000_000
            $0.keepPartialOnCancel = false
        }, remote: sandbox.remote, cancel: cancel) { event in
            if case .progress(let p) = event, p.fileDone > 300_000 { cancel.cancel() }
        }
        #expect(summary.problem?.kind == .cancelled)
        #expect(try sandbox.remote.list(sandbox.folder).isEmpty)
    }

    @Test func permissionDeniedIsSaidPerFileAndTheRestGoesOn() throws {
        let sandbox = try RemoteSandbox()
        let locked = sandbox.remotePath("locked")
        try sandbox.remote.makeDirectory(locked, mode: 0o755)
        try sandbox.remote.changeMode(locked, to: 0o555)
        defer { try? sandbox.remote.changeMode(locked, to: 0o755) }
        let source = sandbox.localPath("f")
        try writeLocal(source, Array("data".utf8))
        let up = Transfer.run(request(.upload, [source], locked), remote: sandbox.remote) { _ in }
        #expect(up.problem == nil)
        guard case .failed(let reason)? = up.outcomes.first?.status else {
            Issue.record("\(up)")
            return
        }
        #expect(reason == "testhost: \(PathBytes.shown(locked))/f: permission denied.")
        // An unreadable remote file, beside a readable one.
        let secret = sandbox.remotePath("secret"), open = sandbox.remotePath("open")
        _ = try sandbox.session.capture("echo s > \(Basics_quote(secret)) && chmod 000 \(Basics_quote(secret)) "
                                        + "&& echo o > \(Basics_quote(open))")
        let down = Transfer.run(request(.download, [secret, open], sandbox.localPath("")),
                                remote: sandbox.remote) { _ in }
        #expect(down.outcomes.map(\.status) == [
            .failed(reason: "testhost: \(PathBytes.shown(secret)): permission denied."), .copied,
        ])
        #expect(!down.allArrived)
    }

    @Test func aFullDiskSaysHowMuchIsFreeAndLeavesNoPartial() throws {
        let sandbox = try RemoteSandbox()
        let small = try SmallTmpfs()
        defer { small.remove() }
        let source = sandbox.localPath("big")
        try writeLocal(source, randomBytes(3_000_000, seed: 12))
        let summary = Transfer.run(request(.upload, [source], Array(small.path.utf8)), remote: sandbox.remote) { _ in }
        guard case .failed(let reason)? = summary.outcomes.first?.status else {
            Issue.record("\(summary)")
            return
        }
        #expect(reason.hasPrefix("No space left on testhost (0 bytes free)"), "\(reason)")
        #expect(try sandbox.remote.list(Array(small.path.utf8)).isEmpty)
    }

    @Test func scpRulesForDestinations() throws {
        let sandbox = try RemoteSandbox()
        let a = sandbox.localPath("a"), b = sandbox.localPath("b")
        try writeLocal(a, [1])
        try writeLocal(b, [2])
        let file = sandbox.remotePath("file")
        try putRemote(sandbox, [9], at: file)
        // Several sources onto a file: refused before anything is copied.
        let many = Transfer.run(request(.upload, [a, b], file), remote: sandbox.remote) { _ in }
        #expect(many.problem?.kind == .usage)
        #expect(many.outcomes.isEmpty)
        // A trailing slash on a missing folder.
        let missing = Transfer.run(request(.upload, [a], sandbox.remotePath("nothere/")), remote: sandbox.remote) { _ in }
        #expect(missing.problem == TransferError(.usage, "There is no folder \(PathBytes.shown(sandbox.remotePath("nothere/"))) on testhost: make it first, or leave out the trailing /."))
        // A missing destination with one source is the new name; an existing file is replaced.
        let renamed = Transfer.run(request(.upload, [a], sandbox.remotePath("new")), remote: sandbox.remote) { _ in }
        #expect(renamed.allArrived)
        let replaced = Transfer.run(request(.upload, [b], file), remote: sandbox.remote) { _ in }
        #expect(replaced.allArrived && replaced.outcomes.first?.replacedAtomically == true)
        #expect(try sandbox.remote.readPrefix(file, limit: 10) == [2])
        // A missing source fails alone.
        let gone = Transfer.run(request(.upload, [sandbox.localPath("gone"), a], sandbox.folder),
                                remote: sandbox.remote) { _ in }
        #expect(gone.outcomes.map(\.status) == [
            .failed(reason: "\(PathBytes.shown(sandbox.localPath("gone"))) on this machine does not exist."), .copied,
        ])
    }

    @Test func limitHoldsTheRate() throws {
        let sandbox = try RemoteSandbox()
        let source = sandbox.localPath("f")
        try writeLocal(source, randomBytes(1_000_000))
        let started = Date()
        let s = Transfer.run(request(.upload, [source], sandbox.remotePath("f")) { $0.limit = 400_000 },
                             remote: sandbox.remote) { _ in }
        #expect(s.allArrived)
        let took = Date().timeIntervalSince(started)
        // At most 400 kB a second: at least 2 s (an upper bound would only measure the machine's load).
        #expect(took > 2.0, "\(took)")
    }
}

extension ResumeAndErrorsTests {
    @Test func aLostConnectionStopsTheTransferAndResumeOnANewOneFinishesIt() throws {
        let sandbox = try RemoteSandbox()
        let bytes = randomBytes(4_000_000, seed: 13)
        let source = sandbox.localPath("big"), second = sandbox.localPath("second")
        try writeLocal(source, bytes)
        try writeLocal(second, [1, 2, 3])
        // The sshd process serving this connection: the parent of a command's shell.
        let sshdPID = Int32(String(decoding: try sandbox.session.capture("echo $PPID").stdout, as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines))!
        let killed = Flag()
        let summary = Transfer.run(request(.upload, [source, second], sandbox.folder) {
            $0.limit = 2_000_000
            $0.parallel = 1
        }, remote: sandbox.remote) { event in
            if case .progress(let p) = event, p.fileDone > 600_000, killed.setOnce() {
                // The session's SFTP children go too: killed alone, its parent leaves them waiting on each other's
                // pipes for ever (internal-sftp forks one per channel without closing its siblings' pipes).
                let children = (try? Spawn.run("/usr/bin/pgrep", ["-P", String(sshdPID)]))
                    .map { $0.out.split(separator: "\n").compactMap { Int32($0) } } ?? []
                kill(sshdPID, SIGKILL)
                for child in children { kill(child, SIGKILL) }
            }
        }
        #expect(summary.problem?.kind == .connection, "\(summary)")
        #expect(summary.outcomes.count == 1)  // the second file was not tried
        // A new connection continues the kept partial.
        let again = try RemoteSandbox(reusing: sandbox.folder)
        let resumed = Transfer.run(request(.upload, [source, second], sandbox.folder) { $0.resume = true },
                                   remote: again.remote) { _ in }
        #expect(resumed.allArrived, "\(resumed)")
        #expect((resumed.outcomes.first?.resumedFrom ?? 0) > 0)
        #expect(try again.remoteSHA(sandbox.remotePath("big")) == sha256Hex(bytes))
    }
}

/// True the first time only, from any thread.
final class Flag: Sendable {
    private let set = Mutex(false)
    func setOnce() -> Bool {
        set.withLock { wasSet in
            defer { wasSet = true }
            return !wasSet
        }
    }
}
