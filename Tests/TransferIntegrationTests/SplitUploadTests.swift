import Foundation
import SSH
import Testing
import TestSupport
@testable import Transfer

/// One big upload on several lanes, each writing its range of the one partial.
@Suite(.serialized) struct SplitUploadTests {
    @Test func aBigFileSplitAcrossFourLanesArrivesIdentical() throws {
        let sandbox = try RemoteSandbox()
        let bytes = randomBytes(9 * 1024 * 1024 + 12_345, seed: 21)
        let source = sandbox.localPath("big")
        try writeLocal(source, bytes, mode: 0o640)
        let (summary, ways) = Transfer.run(request(.upload, [source], sandbox.remotePath("big")) {
            $0.parallel = 4
            $0.checksum = true
            $0.preserve = true
        }, remote: sandbox.remote, cancel: nil, splitThreshold: 1 << 20) { _ in }
        #expect(ways == 4)
        #expect(summary.allArrived, "\(summary)")
        #expect(summary.bytesSent == Int64(bytes.count))
        #expect(summary.outcomes.first?.checksum == .matched(sha256: sha256Hex(bytes)))
        #expect(try sandbox.remote.info(sandbox.remotePath("big"))?.mode == 0o640)
        #expect(try sandbox.remote.list(sandbox.folder).map(\.name) == [Array("big".utf8)])
        // Two files are not split; nor is a --resume.
        let (_, two) = Transfer.run(request(.upload, [source, source], sandbox.folder) { $0.parallel = 4 },
                                    remote: sandbox.remote, cancel: nil, splitThreshold: 1 << 20) { _ in }
        #expect(two == 1)
    }

    @Test func aCancelledSplitUploadLeavesItsCompletePrefixForResume() throws {
        let sandbox = try RemoteSandbox()
        let bytes = randomBytes(8 * 1024 * 1024, seed: 22)
        let source = sandbox.localPath("big")
        try writeLocal(source, bytes)
        let destination = sandbox.remotePath("big")
        let cancel = try Cancellation()
        let (summary, ways) = Transfer.run(request(.upload, [source], destination) {
            $0.parallel = 2
            $0.limit = 4_000_000
        }, remote: sandbox.remote, cancel: cancel, splitThreshold: 1 << 20) { event in
            if case .progress(let p) = event, p.fileDone > 3_000_000 { cancel.cancel() }
        }
        #expect(ways == 2)
        #expect(summary.problem?.kind == .cancelled)
        let names = try sandbox.remote.list(sandbox.folder)
        #expect(names.count == 1 && names[0].info.size > 0 && names[0].info.size < 4 * 1024 * 1024,
                "\(names.map { ($0.name, $0.info.size) })")
        let resumed = Transfer.run(request(.upload, [source], destination) { $0.resume = true },
                                   remote: sandbox.remote) { _ in }
        #expect(resumed.allArrived, "\(resumed)")
        #expect(resumed.outcomes.first?.resumedFrom == names[0].info.size)
        #expect(try sandbox.remoteSHA(destination) == sha256Hex(bytes))
    }
}
