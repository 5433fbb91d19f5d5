import Foundation
import Testing
import TestSupport
@testable import SSH

/// The SFTP edge against the harness's sshd (internal-sftp), row by row of the design note's §2.
@Suite(.serialized) struct SFTPClientTests {
    final class Fixture: @unchecked Sendable {
        let session: SSHSession
        let sftp: SFTPClient
        let folder: [UInt8]
        init() throws {
            let s = try TestServers.require()
            session = try connect(s)
            sftp = try SFTPClient(session: session)
            folder = Array("\(s.home)/essh-sftp-\(UUID().uuidString)".utf8)
            try sftp.makeDirectory(folder)
        }
        deinit {
            _ = try? session.capture("rm -rf -- '\(String(decoding: folder, as: UTF8.self))'")
            sftp.close()
            session.disconnect()
        }
        func path(_ name: String) -> [UInt8] { folder + Array("/\(name)".utf8) }
        func shell(_ command: String) throws -> String {
            String(decoding: try session.capture("cd '\(String(decoding: folder, as: UTF8.self))' && \(command)").stdout,
                   as: UTF8.self)
        }
    }

    @Test func aSymbolicLinkPointsWhereItWasAskedTo() throws {
        let f = try Fixture()
        try f.sftp.makeSymbolicLink(f.path("link"), pointingTo: Array("target-name".utf8))
        #expect(try f.shell("readlink link") == "target-name\n")
        #expect(try f.sftp.readLink(f.path("link")) == Array("target-name".utf8))
        #expect(try f.sftp.stat(f.path("link"), followLinks: false).isSymbolicLink)
        // Followed, a dangling link is "no such file".
        let e = sshError { _ = try f.sftp.stat(f.path("link")) }
        #expect(e?.kind == .remoteFile && e?.sftpStatus == .noSuchFile)
    }
}

extension SFTPClientTests {
    @Test func theFileCallsAnswerAsSection2Says() throws {
        let f = try Fixture()
        // Missing: FX 2. A folder opened for reading opens; its first read fails.
        #expect(sshError { _ = try f.sftp.stat(f.path("missing")) }?.sftpStatus == .noSuchFile)
        #expect(sshError { _ = try f.sftp.open(f.path("nodir/x"), .createTruncate) }?.sftpStatus == .noSuchFile)
        // Write, read back, fstat, setstat, plain rename onto an existing file fails, posix-rename replaces it.
        let a = f.path("a"), b = f.path("b")
        let file = try f.sftp.open(a, .createTruncate, mode: 0o600)
        let data = Array("hello, sftp".utf8)
        let acked = try data.withUnsafeBytes { try file.write($0) }
        #expect(acked == data.count)
        try file.setStat(SFTPAttributes(permissions: 0o640, accessed: 1_000_000_000, modified: 1_200_000_000))
        #expect(try file.stat().size == UInt64(data.count))
        try file.close()
        let attrs = try f.sftp.stat(a)
        #expect(attrs.isRegularFile && attrs.permissions! & 0o7777 == 0o640 && attrs.modified == 1_200_000_000)
        _ = try f.shell("echo other > b")
        let plain = sshError { try f.sftp.rename(a, to: b) }
        #expect(plain?.sftpStatus == .failure)
        #expect(try f.sftp.posixRename(a, to: b))
        #expect(try f.shell("cat b") == "hello, sftp")
        // Read with a buffer larger than the file: the bytes, then 0.
        let reader = try f.sftp.open(b, .read)
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = try buffer.withUnsafeMutableBytes { try reader.read(into: $0) }
        #expect(Array(buffer[0..<n]) == data)
        #expect(try buffer.withUnsafeMutableBytes { try reader.read(into: $0) } == 0)
        try reader.close()
        // Listing: raw names, lstat attributes, the ls -l line with the owner's name.
        _ = try f.shell("mkdir sub && ln -s b l && printf x > \"$(printf 'n\\377')\"")
        let entries = try f.sftp.list(f.folder)
        let names = Set(entries.map(\.name))
        #expect(names == [Array("b".utf8), Array("sub".utf8), Array("l".utf8), [0x6E, 0xFF]])
        #expect(entries.first { $0.name == Array("l".utf8) }?.attributes.isSymbolicLink == true)
        #expect(entries.first { $0.name == Array("sub".utf8) }?.attributes.isDirectory == true)
        #expect(String(decoding: entries[0].longName, as: UTF8.self).contains("essh-test"))
        // realpath(".") is the home folder; free space is known.
        let s = try TestServers.require()
        #expect(try f.sftp.realPath(Array(".".utf8)) == Array(s.home.utf8))
        #expect(try f.sftp.spaceAvailable(f.folder) > 0)
        // rmdir of a non-empty folder fails; remove and rmdir work.
        _ = try f.shell("touch sub/x")
        #expect(sshError { try f.sftp.removeDirectory(f.path("sub")) }?.kind == .remoteFile)
        try f.sftp.remove(f.path("sub/x"))
        try f.sftp.removeDirectory(f.path("sub"))
        #expect(try f.shell("ls -d sub 2>/dev/null || echo gone") == "gone\n")
    }

    @Test func aCancelDropsTheChannelAndLaterCallsSayItIsClosed() throws {
        let f = try Fixture()
        let cancel = try Cancellation()
        let lane = try SFTPClient(session: f.session, cancel: cancel)
        _ = try f.shell("mkfifo fifo")
        // Opening a FIFO gets no answer (the channel hangs): only the cancel ends the wait.
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.5) { cancel.cancel() }
        let started = Date()
        let e = sshError { _ = try lane.open(f.path("fifo"), .read) }
        #expect(e?.kind == .cancelled)
        #expect(Date().timeIntervalSince(started) < 5)
        #expect(!lane.isOpen)
        #expect(sshError { _ = try lane.stat(f.folder) }?.kind == .disconnected)
        // The other channel on the session still answers.
        #expect(try f.sftp.stat(f.folder).isDirectory)
        _ = try f.shell("rm -f fifo")
    }

    @Test func twoChannelsOnOneSessionWorkFromTwoThreadsAtOnce() throws {
        let f = try Fixture()
        let other = try SFTPClient(session: f.session)
        let group = DispatchGroup()
        let failures = Failures()
        for (i, client) in [f.sftp, other].enumerated() {
            group.enter()
            DispatchQueue.global().async {
                defer { group.leave() }
                do {
                    for k in 0..<30 {
                        let p = f.path("t\(i)-\(k)")
                        let file = try client.open(p, .createTruncate)
                        let bytes = [UInt8](repeating: UInt8(k), count: 70_000)
                        var off = 0
                        while off < bytes.count {
                            off += try bytes.withUnsafeBytes { try file.write(UnsafeRawBufferPointer(rebasing: $0[off...])) }
                        }
                        try file.close()
                        if try client.stat(p).size != 70_000 { failures.add("size of \(p)") }
                    }
                } catch { failures.add("\(error)") }
            }
        }
        #expect(group.wait(timeout: .now() + 60) == .success)
        #expect(failures.all.isEmpty, "\(failures.all)")
    }
}

final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String] = []
    func add(_ s: String) { lock.lock(); items.append(s); lock.unlock() }
    var all: [String] { lock.lock(); defer { lock.unlock() }; return items }
}
