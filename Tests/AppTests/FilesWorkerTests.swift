import Foundation
import Testing
import TestSupport
import Transfer
@testable import App
@testable import AppCore

/// The files worker's own parts on this machine's files: the operations of F6, F7, F8 and chmod (all of them, or
/// the first failure's sentence after some), the partial files Esc removes, and a copy's progress merged in the
/// message queue so only the newest unread figures are drawn.
@Suite("Files worker: local operations, partials, progress")
struct FilesWorkerTests {
    static func bytes(_ path: String) -> [UInt8] { Array(path.utf8) }

    @Test func operationsChangeTheFilesAndSayWhatTheyDid() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let files = LocalFiles()
        try "x".write(toFile: dir.file("a.txt"), atomically: true, encoding: .utf8)
        var (done, problem, select) = FilesWorker.apply(.makeDirectory(Self.bytes(dir.file("new dir"))), on: files)
        #expect(done == 1 && problem == nil && select == Self.bytes("new dir"))
        var isDirectory: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: dir.file("new dir"), isDirectory: &isDirectory)
                && isDirectory.boolValue)
        (done, problem, select) = FilesWorker.apply(.rename(from: Self.bytes(dir.file("a.txt")),
                                                            to: Self.bytes(dir.file("b\nc.txt"))), on: files)
        #expect(done == 1 && problem == nil && select == Self.bytes("b\nc.txt"))
        #expect(FileManager.default.fileExists(atPath: dir.file("b\nc.txt")))
        (done, problem, _) = FilesWorker.apply(.changeMode([Self.bytes(dir.file("b\nc.txt"))], to: 0o600), on: files)
        #expect(done == 1 && problem == nil)
        let mode = try FileManager.default.attributesOfItem(atPath: dir.file("b\nc.txt"))[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(FilesWorker.notice(.changeMode([], to: 0o600), count: 1) == "Mode 600 set on 1 entry.")
        // Deleting two, one of them missing: the first is gone, the second's failure is the sentence.
        (done, problem, _) = FilesWorker.apply(.remove([Self.bytes(dir.file("new dir")),
                                                        Self.bytes(dir.file("missing"))]), on: files)
        #expect(done == 1)
        #expect(problem?.contains("missing") == true, "\(problem ?? "")")
        #expect(!FileManager.default.fileExists(atPath: dir.file("new dir")))
        #expect(FilesWorker.notice(.remove([]), count: 2) == "Deleted 2 entries.")
    }

    @Test func escRemovesThePartialsOfTheFilesItStartedAndNothingElse() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let partial = String(decoding: PartialName.name(for: Self.bytes("big.bin"), sourcePath: Self.bytes("/x"),
                                                        size: 1, modified: 1), as: UTF8.self)
        for name in [partial, ".big.bin.essh-zzzzzzzz.part", "big.bin.part", "other.bin"] {
            try "x".write(toFile: dir.file(name), atomically: true, encoding: .utf8)
        }
        FilesWorker.removePartials(of: [Self.bytes(dir.file("big.bin"))], on: LocalFiles())
        let left = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
        #expect(left == [".big.bin.essh-zzzzzzzz.part", "big.bin.part", "other.bin"])
    }

    /// A listing as a hostile server might send it.
    struct ListingOnly: FileSide {
        var names: [[UInt8]]
        func list(_ directory: [UInt8]) throws(TransferError) -> [FileEntry] {
            names.map { FileEntry(name: $0, info: FileInfo(kind: .regular, size: 1, mode: 0o644, modified: 0,
                                                           accessed: 0), owner: "x") }
        }
        func info(_ path: [UInt8], followLinks: Bool) throws(TransferError) -> FileInfo? { nil }
        func makeDirectory(_ path: [UInt8], mode: UInt32) throws(TransferError) {}
        func rename(_ from: [UInt8], to: [UInt8]) throws(TransferError) {}
        func remove(_ path: [UInt8], recursive: Bool) throws(TransferError) {}
        func changeMode(_ path: [UInt8], to mode: UInt32) throws(TransferError) {}
        func readPrefix(_ path: [UInt8], limit: Int) throws(TransferError) -> [UInt8] { [] }
    }

    @Test func namesThatAreNoPathComponentAreNeitherShownNorUsedButReported() throws {
        let names = [Self.bytes("ok.txt"), Self.bytes("../x"), Self.bytes("a/b"), Self.bytes(".."), [0x61, 0, 0x62],
                     [], Self.bytes("fine")]
        let listing = try FilesWorker.rows(ListingOnly(names: names), Self.bytes("/srv"))
        #expect(listing.rows.map(\.name) == [Self.bytes("ok.txt"), Self.bytes("fine")])
        #expect(listing.omitted == [Self.bytes("../x"), Self.bytes("a/b"), Self.bytes(".."), [0x61, 0, 0x62], []])
    }

    @Test func aCopysProgressIsMergedToTheNewestUnreadFigures() {
        let queue = MessageQueue(waker: MessageQueueTests.CountingWaker())
        func progress(_ done: Int64) -> TransferProgress {
            TransferProgress(file: [], fileDone: done, fileSize: 10, totalDone: done, totalBytes: 10, filesDone: 0,
                          filesTotal: 1, bytesPerSecond: 1, secondsLeft: nil)
        }
        queue.post(.files(.transfer(session: 1, id: 1, .progress(progress(1)))))
        queue.post(.files(.transfer(session: 1, id: 1, .progress(progress(2)))))
        queue.post(.files(.transfer(session: 1, id: 2, .progress(progress(3)))))
        queue.post(.files(.transfer(session: 1, id: 2, .fileFinished(name: [], problem: nil))))
        queue.post(.files(.transfer(session: 1, id: 2, .progress(progress(4)))))
        let drained = queue.drain()
        #expect(drained.count == 4)
        if case .files(.transfer(1, 1, .progress(let p)))? = drained.first { #expect(p.totalDone == 2) } else {
            Issue.record("\(drained)")
        }
    }
}
