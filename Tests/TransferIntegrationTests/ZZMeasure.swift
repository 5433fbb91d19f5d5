import Foundation
import SSH
import Testing
import TestSupport
import Transfer

@Suite(.serialized) struct ZZMeasure {
    @Test func measure() throws {
        guard ProcessInfo.processInfo.environment["ESSH_MEASURE"] != nil else { return }
        let sandbox = try RemoteSandbox(lanes: 8)
        let tree = sandbox.local.file("tree")
        for d in 0..<10 {
            try FileManager.default.createDirectory(atPath: tree + "/d\(d)", withIntermediateDirectories: true)
            for f in 0..<100 { try writeLocal(Array((tree + "/d\(d)/f\(f)").utf8), randomBytes(4096, seed: UInt64(d * 100 + f))) }
        }
        for lanes in [1, 4, 8] {
            let t0 = Date()
            let s = Transfer.run(request(.upload, [Array(tree.utf8)], sandbox.remotePath("t\(lanes)")) {
                $0.recursive = true; $0.parallel = lanes; $0.preserve = true }, remote: sandbox.remote) { _ in }
            print("MEASURE 1000 files up, \(lanes) lanes: \(Date().timeIntervalSince(t0)) s, arrived \(s.allArrived)")
        }
        let big = Array("\(sandbox.servers.home)/data-200m".utf8)
        var t0 = Date()
        let down = Transfer.run(request(.download, [big], sandbox.localPath("big")), remote: sandbox.remote) { _ in }
        print("MEASURE 200 MB down: \(Date().timeIntervalSince(t0)) s \(down.allArrived)")
        t0 = Date()
        let up = Transfer.run(request(.upload, [sandbox.localPath("big")], sandbox.remotePath("big")), remote: sandbox.remote) { _ in }
        print("MEASURE 200 MB up: \(Date().timeIntervalSince(t0)) s \(up.allArrived)")
    }
}
