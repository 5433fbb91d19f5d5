import Foundation
import Testing
import Transfer

/// The Files screen's operations on this machine, in a private temporary folder.
@Suite struct LocalFilesTests {
    @Test func listingInfoAndTheFolderOperations() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("essh-local-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: base + "/d/e", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: base) }
        let root = Array(base.utf8)
        func p(_ name: [UInt8]) -> [UInt8] { root + [0x2F] + name }
        try Data("12345".utf8).write(to: URL(fileURLWithPath: base + "/f"))
        symlink("f", base + "/l")
        mkfifo(base + "/p", 0o644)
        let odd: [UInt8] = [0x6E, 0xFF, 0x0A]
        let fd = open((p(odd).map { CChar(bitPattern: $0) } + [0]), O_CREAT | O_WRONLY, 0o640)
        close(fd)
        let files = LocalFiles()
        let entries = try files.list(root).sorted { $0.name.lexicographicallyPrecedes($1.name) }
        #expect(entries.map(\.name) == [Array("d".utf8), Array("f".utf8), Array("l".utf8), odd, Array("p".utf8)])
        #expect(entries.map(\.info.kind) == [.directory, .regular, .symlink, .regular, .fifo])
        #expect(entries[3].info.mode == 0o640)
        #expect(entries[2].linkTarget == Array("f".utf8))
        let me = String(cString: getpwuid(getuid())!.pointee.pw_name)
        #expect(entries.allSatisfy { $0.owner == me })
        #expect(try files.info(p(Array("missing".utf8))) == nil)
        #expect(try files.info(p(Array("l".utf8)), followLinks: false)?.kind == .symlink)
        #expect(try files.readPrefix(p(Array("f".utf8)), limit: 2) == Array("12".utf8))
        do {
            _ = try files.readPrefix(p(Array("p".utf8)), limit: 10)
            Issue.record("read a FIFO")
        } catch {
            #expect(error.message.hasSuffix("is a FIFO, not a regular file."))
        }
        do {
            try files.rename(p(Array("f".utf8)), to: p(Array("d".utf8)))
            Issue.record("renamed onto an existing name")
        } catch {
            #expect(error.message.contains("already exists on this machine"))
        }
        try files.rename(p(odd), to: p(Array("plain".utf8)))
        try files.changeMode(p(Array("plain".utf8)), to: 0o600)
        #expect(try files.info(p(Array("plain".utf8)))?.mode == 0o600)
        try files.makeDirectory(p(Array("new".utf8)), mode: 0o700)
        #expect(try files.info(p(Array("new".utf8)))?.kind == .directory)
        #expect(throws: TransferError.self) { try files.remove(p(Array("d".utf8)), recursive: false) }
        try files.remove(p(Array("d".utf8)), recursive: true)
        #expect(try files.info(p(Array("d".utf8))) == nil)
        #expect(try files.realPath(root + Array("/new/..".utf8)) == (try files.realPath(root)))
        #expect(!files.home().isEmpty)
        #expect(throws: TransferError(.localFile, "Cannot make the folder \(base)/no/x on this machine: no such file or "
                                      + "folder.")) { try files.makeDirectory(p(Array("no/x".utf8))) }
    }
}
