import Foundation
import SSH
import Testing
import TestSupport
import Transfer

/// Hostile names, -r trees with links and special files, -p, --checksum.
@Suite(.serialized) struct NamesAndTreesTests {
    static let hostileNames: [[UInt8]] = [
        Array("with space".utf8), Array("new\nline".utf8), [0x66, 0xFF, 0xFE, 0x2E, 0x62, 0x69, 0x6E],
        Array("-leading-dash".utf8), Array("quote'in \"it\" $(x)".utf8),
    ]

    @Test func hostileNamesGoUpAndComeBackWithMatchingChecksums() throws {
        let sandbox = try RemoteSandbox()
        let upDir = sandbox.localPath("up")
        mkdir(upDir.map { CChar(bitPattern: $0) } + [0], 0o755)
        var sources: [[UInt8]] = []
        for (i, name) in Self.hostileNames.enumerated() {
            let path = upDir + [0x2F] + name
            try writeLocal(path, randomBytes(1000 + i, seed: UInt64(i)))
            sources.append(path)
        }
        let up = Transfer.run(request(.upload, sources, sandbox.folder) { $0.checksum = true },
                              remote: sandbox.remote) { _ in }
        #expect(up.allArrived, "\(up)")
        for outcome in up.outcomes {
            guard case .matched = outcome.checksum else {
                Issue.record("checksum of \(PathBytes.shown(outcome.destination)): \(String(describing: outcome.checksum))")
                continue
            }
        }
        let listed = try sandbox.remote.list(sandbox.folder).map(\.name)
        #expect(Set(listed) == Set(Self.hostileNames))
        // And back, into a local folder.
        let downDir = sandbox.localPath("down")
        mkdir(downDir.map { CChar(bitPattern: $0) } + [0], 0o755)
        let down = Transfer.run(request(.download, Self.hostileNames.map { sandbox.remotePath($0) }, downDir) {
            $0.checksum = true
        }, remote: sandbox.remote) { _ in }
        #expect(down.allArrived, "\(down)")
        for (i, name) in Self.hostileNames.enumerated() {
            #expect(readLocal(downDir + [0x2F] + name) == randomBytes(1000 + i, seed: UInt64(i)))
        }
    }

    @Test func aTreeKeepsModesTimesAndLinksSkipsTheFIFOAndCopiesTheRest() throws {
        let sandbox = try RemoteSandbox()
        let root = sandbox.local.file("tree")
        try FileManager.default.createDirectory(atPath: root + "/sub/deeper", withIntermediateDirectories: true)
        try writeLocal(Array((root + "/a").utf8), Array("alpha".utf8), mode: 0o640)
        try writeLocal(Array((root + "/sub/b").utf8), randomBytes(300_000), mode: 0o755)
        try writeLocal(Array((root + "/sub/deeper/c").utf8), [], mode: 0o600)
        symlink("a", root + "/link")
        mkfifo(root + "/fifo", 0o644)
        var times = [timespec(tv_sec: 1_600_000_000, tv_nsec: 0), timespec(tv_sec: 1_500_000_000, tv_nsec: 0)]
        utimensat(AT_FDCWD, root + "/a", &times, AT_SYMLINK_NOFOLLOW)
        chmod(root + "/sub", 0o750)

        let up = Transfer.run(request(.upload, [Array(root.utf8)], sandbox.folder) {
            $0.recursive = true
            $0.preserve = true
        }, remote: sandbox.remote) { _ in }
        #expect(up.problem == nil)
        #expect(!up.allArrived)  // the FIFO
        let fifo = up.outcomes.first { PathBytes.baseName($0.destination) == Array("fifo".utf8) }
        guard case .skipped(let reason)? = fifo?.status else {
            Issue.record("FIFO: \(String(describing: fifo))")
            return
        }
        #expect(reason.contains("not a regular file"))
        #expect(up.outcomes.filter { $0.arrived }.count == up.outcomes.count - 1, "\(up.outcomes)")

        let remoteRoot = sandbox.remotePath("tree")
        let a = try #require(try sandbox.remote.info(remoteRoot + Array("/a".utf8)))
        #expect(a.mode == 0o640 && a.modified == 1_500_000_000 && a.size == 5)
        #expect(try sandbox.remote.info(remoteRoot + Array("/sub".utf8))?.mode == 0o750)
        #expect(try sandbox.remote.info(remoteRoot + Array("/sub/b".utf8))?.mode == 0o755)
        #expect(try sandbox.remote.readLink(remoteRoot + Array("/link".utf8)) == Array("a".utf8))
        #expect(try sandbox.remote.info(remoteRoot + Array("/fifo".utf8), followLinks: false) == nil)
        // The session still answers.
        #expect(try sandbox.session.capture("echo ok").stdout == Array("ok\n".utf8))

        // Down again, elsewhere: the same tree.
        let back = sandbox.localPath("back")
        let down = Transfer.run(request(.download, [remoteRoot], back) {
            $0.recursive = true
            $0.preserve = true
        }, remote: sandbox.remote) { _ in }
        #expect(down.allArrived, "\(down)")
        let backRoot = sandbox.local.file("back")
        #expect(readLocal(Array((backRoot + "/sub/b").utf8)) == randomBytes(300_000))
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: backRoot + "/link")) == "a")
        var st = stat()
        stat(backRoot + "/a", &st)
        #expect(st.st_mode & 0o7777 == 0o640 && st.st_mtim.tv_sec == 1_500_000_000)
    }

    @Test func aRemoteFIFOIsRefusedBeforeItIsOpenedAndTheRestArrives() throws {
        let sandbox = try RemoteSandbox()
        let fifo = sandbox.remotePath("pipe")
        let plain = sandbox.remotePath("plain")
        _ = try sandbox.session.capture("mkfifo \(Basics_quote(fifo)) && printf hello > \(Basics_quote(plain))")
        let started = Date()
        let into = sandbox.localPath("")
        let summary = Transfer.run(request(.download, [fifo, plain], into), remote: sandbox.remote) { _ in }
        #expect(Date().timeIntervalSince(started) < 10)
        #expect(summary.problem == nil)
        guard case .skipped(let reason) = summary.outcomes[0].status else {
            Issue.record("\(summary.outcomes[0])")
            return
        }
        #expect(reason.contains("not a regular file (a FIFO)"))
        #expect(summary.outcomes[1].status == .copied)
        #expect(readLocal(sandbox.localPath("plain")) == Array("hello".utf8))
        // The shared channel still answers.
        #expect(try sandbox.remote.info(plain)?.size == 5)
    }

    @Test func manyFilesOnFourLanesAllArriveAndProgressComesAtMostTenTimesASecond() throws {
        let sandbox = try RemoteSandbox()
        var sources: [[UInt8]] = []
        for i in 0..<24 {
            let p = sandbox.localPath("f\(i)")
            try writeLocal(p, randomBytes(200_000 + i, seed: UInt64(100 + i)))
            sources.append(p)
        }
        let stamps = EventLog()
        let times = TimeLog()
        let summary = Transfer.run(request(.upload, sources, sandbox.folder) { $0.parallel = 4 },
                                   remote: sandbox.remote) { event in
            stamps.add(event)
            if case .progress = event { times.add(Date().timeIntervalSince1970) }
        }
        #expect(summary.allArrived, "\(summary)")
        #expect(summary.outcomes.count == 24)
        for i in [0, 11, 23] {
            #expect(try sandbox.remoteSHA(sandbox.remotePath("f\(i)")) == sha256Hex(randomBytes(200_000 + i,
                                                                                               seed: UInt64(100 + i))))
        }
        let t = times.values
        for (x, y) in zip(t, t.dropFirst()) { #expect(y - x >= 0.09) }
        #expect(stamps.events.first == .planned(files: 24, bytes: Int64((0..<24).reduce(0) { $0 + 200_000 + $1 })))
    }
}

final class TimeLog: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [Double] = []
    func add(_ t: Double) { lock.lock(); items.append(t); lock.unlock() }
    var values: [Double] { lock.lock(); defer { lock.unlock() }; return items }
}

extension NamesAndTreesTests {
    @Test func aSourceThatVanishesAfterPlanningFailsAloneAndTheLoginFolderHasAName() throws {
        let sandbox = try RemoteSandbox()
        let a = sandbox.localPath("a"), b = sandbox.localPath("b")
        try writeLocal(a, [1])
        try writeLocal(b, [2])
        let summary = Transfer.run(request(.upload, [a, b], sandbox.folder) { $0.parallel = 1 },
                                   remote: sandbox.remote) { event in
            if case .planned = event { unlink(String(decoding: a, as: UTF8.self)) }
        }
        #expect(summary.outcomes.map(\.status) == [
            .failed(reason: "\(PathBytes.shown(a)) vanished on this machine before it was copied."), .copied,
        ])
        // `dir/.` (and the login folder, an empty remote path) copy under the folder's real name.
        let tree = sandbox.local.file("tree")
        try FileManager.default.createDirectory(atPath: tree, withIntermediateDirectories: true)
        try writeLocal(Array((tree + "/x").utf8), [3])
        let dot = Transfer.run(request(.upload, [Array((tree + "/.").utf8)], sandbox.folder) { $0.recursive = true },
                               remote: sandbox.remote) { _ in }
        #expect(dot.allArrived, "\(dot)")
        #expect(try sandbox.remote.readPrefix(sandbox.remotePath("tree/x"), limit: 10) == [3])
    }
}

extension NamesAndTreesTests {
    @Test func aSourceThatShrinksWhileItIsCopiedFailsWithoutADestination() throws {
        let sandbox = try RemoteSandbox()
        // Up: the local file is cut once the copy has started.
        let source = sandbox.localPath("s")
        try writeLocal(source, randomBytes(3_000_000))
        let up = Transfer.run(request(.upload, [source], sandbox.remotePath("s")), remote: sandbox.remote) { event in
            if case .fileStarted = event { truncate(String(decoding: source, as: UTF8.self), 1000) }
        }
        #expect(up.outcomes.map(\.status) == [.failed(reason: "\(PathBytes.shown(source)) changed on this machine "
                                                      + "while it was copied (1,000 of 3,000,000 bytes read): copy it "
                                                      + "again once it is complete.")])
        // Down: the server's file is cut the same way.
        let remotePath = sandbox.remotePath("r")
        _ = try sandbox.session.capture("head -c 3000000 /dev/zero > \(Basics_quote(remotePath))")
        let session = sandbox.session
        let down = Transfer.run(request(.download, [remotePath], sandbox.localPath("r")), remote: sandbox.remote) { event in
            if case .fileStarted = event { _ = try? session.capture("truncate -s 1000 \(Basics_quote(remotePath))") }
        }
        #expect(down.outcomes.map(\.status) == [.failed(reason: "testhost: \(PathBytes.shown(remotePath)) changed "
                                                        + "while it was copied: copy it again once it is complete.")])
        #expect(try sandbox.remote.list(sandbox.folder).map(\.name).sorted { $0.lexicographicallyPrecedes($1) }
                == [Array("r".utf8)])
        #expect(readLocal(sandbox.localPath("r")) == nil)
    }
}
