import Foundation
import SSH
import Testing
import TestSupport
import Transfer

/// The hostile SFTP server of the harness (TestSupport's HostileSFTPServer, issue 27) answers eSSH's own client:
/// names no honest server sends reach `RemoteFiles` byte for byte, and the server logs what eSSH asked.
@Suite struct HostileServerTests {
    typealias Entry = HostileSFTPServer.Entry

    static let longName = HostileSFTPServer.Name([UInt8](repeating: 0x6C, count: 300))

    static let scenario = HostileSFTPServer.Scenario([
        .folder("tree", [
            .file("ok.txt", "hello\n"),
            .file("../escape", "x"),
            .file("a/b", "y"),
            .file("/tmp/x", "z"),
            .file(.bytes([0x6E, 0x00, 0x75, 0x6C]), "nul"),
            .file(.bytes([0x6E, 0xFF, 0x0A]), "not UTF-8, a newline"),
            .file(longName, "300 bytes of name"),
            .symlink("link", to: "/etc"),
            .folder("link", [.file("f", "inside")]),
            .loop("loop"),
            .file("liar", "abc").lying(.init(size: 99)),
        ]),
    ])

    @Test func rawNamesArriveUnchanged() throws {
        let server = try HostileSFTPServer(Self.scenario)
        defer { server.stop() }
        let connection = try HostileConnection(server)
        let remote = connection.remote
        #expect(try remote.home() == Array("/home/hostile".utf8))
        let entries = try remote.list(Array("tree".utf8))
        #expect(entries.map(\.name) == [
            Array("ok.txt".utf8), Array("../escape".utf8), Array("a/b".utf8), Array("/tmp/x".utf8),
            [0x6E, 0x00, 0x75, 0x6C], [0x6E, 0xFF, 0x0A], Self.longName.bytes, Array("link".utf8),
            Array("link".utf8), Array("loop".utf8), Array("liar".utf8),
        ], "\(entries.map { HostileSFTPServer.logged($0.name) }); server: \(server.errors)")
        #expect(entries.map(\.info.kind) == [.regular, .regular, .regular, .regular, .regular, .regular, .regular,
                                             .symlink, .directory, .directory, .regular])
        #expect(entries.last?.info.size == 99, "the size the server claims")
        #expect(entries.first?.owner == "hostile")

        // A path finds the last entry of a name: `link` is the folder; the loop goes on at distinct paths.
        #expect(try remote.list(Array("tree/link".utf8)).map(\.name) == [Array("f".utf8)])
        let deep = Array("/home/hostile/tree/loop/loop/loop/loop".utf8)
        #expect(try remote.list(deep).map(\.name) == [Array("loop".utf8)])
        #expect(try remote.realPath(deep) == deep)
        #expect(try remote.readPrefix(Array("tree/ok.txt".utf8), limit: 100) == Array("hello\n".utf8))

        let log = server.requests
        #expect(log.contains("SUBSYSTEM sftp"), "\(log)")
        #expect(log.contains("OPENDIR tree"), "\(log)")
        #expect(log.contains("OPENDIR " + HostileSFTPServer.logged(deep)), "\(log)")
        #expect(log.contains { $0.hasPrefix("READ tree/ok.txt offset=0 ") }, "\(log)")
    }

    @Test func aMissingFolderAndARefusedUploadAreSFTPErrors() throws {
        let server = try HostileSFTPServer(.init([.folder("tree", [.folder("locked").failing(.opendir)])]))
        defer { server.stop() }
        let connection = try HostileConnection(server)
        let remote = connection.remote
        #expect(try remote.info(Array("missing".utf8)) == nil)
        #expect(throws: TransferError.self) { try remote.list(Array("tree/locked".utf8)) }
        #expect(throws: TransferError.self) { try remote.makeDirectory(Array("tree/new".utf8)) }
        #expect(server.requests.contains("MKDIR tree/new"), "\(server.requests)")
    }
}
