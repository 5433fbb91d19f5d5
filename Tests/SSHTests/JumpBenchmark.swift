import Foundation
import Testing
import TestSupport
@testable import SSH

/// Jump hosts against direct connections, on the namespace topology: b1 directly, and t1 through b1 (both sshd
/// in their own namespaces, alike). Only with ESSH_BENCH_JUMP=1; prints medians (docs/DECISIONS.md 2026-11-24 has
/// the figures and the OpenSSH commands beside them).
@Suite(.serialized, .enabled(if: ProcessInfo.processInfo.environment["ESSH_BENCH_JUMP"] != nil))
struct JumpBenchmark {
    private func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
    private func ms(_ v: Double) -> String { String(format: "%.1f ms", v * 1000) }

    @Test func connectCommandAndThroughput() throws {
        let s = try TestServers.require()
        let direct = hop(s, s.jump.b1)
        let viaHop = t1ViaBastion(s)
        for (label, options) in [("direct b1", direct), ("t1 via b1", viaHop)] {
            var connects: [Double] = []
            for _ in 0..<20 {
                let started = Date()
                let session = try SSHSession.connect(options)
                _ = try session.capture("true")
                connects.append(Date().timeIntervalSince(started))
                session.disconnect()
            }
            let session = try SSHSession.connect(options)
            var commands: [Double] = []
            for _ in 0..<100 {
                let started = Date()
                _ = try session.capture("true")
                commands.append(Date().timeIntervalSince(started))
            }
            var rates: [Double] = []
            for _ in 0..<5 {
                var count = 0
                let started = Date()
                _ = try session.run("head -c 200000000 \(s.data200M)") { _, bytes in count += bytes.count }
                rates.append(Double(count) / 1_048_576 / Date().timeIntervalSince(started))
            }
            print("BENCH \(label): connect+login+true \(ms(median(connects))), exec true on a session "
                  + "\(ms(median(commands))), cat 200 MB \(String(format: "%.0f", median(rates))) MiB/s")
        }
    }
}
