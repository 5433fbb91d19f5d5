import Foundation
import SSH
import Testing
import TestSupport
import Transfer

/// `Transfer.run` against the harness's real sshd: byte-exact round trips.
@Suite(.serialized) struct RoundTripTests {
    /// Up, then down into another name; both ends' sha256 equal the source's.
    func roundTrip(_ sandbox: RemoteSandbox, name: [UInt8], bytes: [UInt8], options: (inout TransferOptions) -> Void = { _ in })
        throws -> (up: TransferSummary, down: TransferSummary)
    {
        let source = sandbox.localPath("src-\(UUID().uuidString)")
        try writeLocal(source, bytes)
        let remotePath = sandbox.remotePath(name)
        let up = Transfer.run(request(.upload, [source], remotePath, options), remote: sandbox.remote) { _ in }
        #expect(up.allArrived, "\(up)")
        #expect(try sandbox.remoteSHA(remotePath) == sha256Hex(bytes))
        let back = sandbox.localPath("back-\(UUID().uuidString)")
        let down = Transfer.run(request(.download, [remotePath], back, options), remote: sandbox.remote) { _ in }
        #expect(down.allArrived, "\(down)")
        #expect(readLocal(back) == bytes)
        return (up, down)
    }

    @Test func emptyOneByteAndSeveralMegabytesArriveIdentical() throws {
        let sandbox = try RemoteSandbox()
        for (i, size) in [0, 1, 5 * 1024 * 1024 + 17].enumerated() {
            let bytes = randomBytes(size, seed: UInt64(i + 1))
            let (up, down) = try roundTrip(sandbox, name: Array("file\(i)".utf8), bytes: bytes)
            #expect(up.outcomes.map(\.status) == [.copied])
            #expect(up.bytesSent == Int64(size) && down.bytesSent == Int64(size))
        }
        // No partial is left beside the destination.
        let names = try sandbox.remote.list(sandbox.folder).map { String(decoding: $0.name, as: UTF8.self) }
        #expect(names.sorted() == ["file0", "file1", "file2"])
    }

    @Test func withoutPreserveAReadOnlyFileKeepsItsModeBothWays() throws {
        let sandbox = try RemoteSandbox()
        let source = sandbox.localPath("ro")
        try writeLocal(source, [1, 2, 3], mode: 0o444)
        let up = Transfer.run(request(.upload, [source], sandbox.remotePath("ro")), remote: sandbox.remote) { _ in }
        #expect(up.allArrived)
        #expect(try sandbox.remote.info(sandbox.remotePath("ro"))?.mode == 0o444)
        let back = sandbox.localPath("back")
        let down = Transfer.run(request(.download, [sandbox.remotePath("ro")], back), remote: sandbox.remote) { _ in }
        #expect(down.allArrived)
        #expect(try LocalFiles().info(back)?.mode == 0o444)
    }
}
