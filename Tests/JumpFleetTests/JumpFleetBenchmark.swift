import Basics
import Fleet
import Foundation
import Operations
import Reachability
import SSH
import Testing
import TestSupport

/// A fleet run and an online check behind one bastion, on the namespace topology (the harness's b1 and t1). Only
/// with ESSH_BENCH_JUMP_FLEET=1 (bench/bench-jump-fleet.sh runs it beside parallel-ssh and records the figures in
/// bench/results/jump-fleet-<date>.md). Prints one `BENCH key=value …` line per measurement; CPU is this process's
/// (getrusage), bastion logins are counted in b1's log.
@Suite(.serialized, .enabled(if: ProcessInfo.processInfo.environment["ESSH_BENCH_JUMP_FLEET"] != nil))
struct JumpFleetBenchmark {
    private let environment = ProcessInfo.processInfo.environment

    private func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
            + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
    }

    @Test func unameOnManyTargetsBehindOneBastion() throws {
        let s = try TestServers.require()
        let count = Int(environment["BENCH_TARGETS"] ?? "") ?? 200
        let parallel = Int(environment["BENCH_PARALLEL"] ?? "") ?? 32
        let runs = Int(environment["BENCH_RUNS"] ?? "") ?? 3
        let bastion = hop(s, s.jump.b1, name: "bastion")
        let targets = (0..<count).map { FleetTarget(name: "t\($0)", options: behind([bastion], s, s.jump.t1)) }
        for run in 0..<runs {
            let logins = acceptedLogins(s.jump.b1.log)
            let cpu = cpuSeconds()
            let started = Date()
            let results = FleetRunner(options: .init(parallel: parallel, timeout: 60)).run(targets, command: "uname")
            let wall = Date().timeIntervalSince(started)
            let used = cpuSeconds() - cpu
            let ok = results.filter { $0.status == .ok && String(decoding: $0.stdout, as: UTF8.self) == "Linux\n" }
            let bastionLogins = settled(1) { acceptedLogins(s.jump.b1.log) - logins }
            print(String(format: "BENCH fleet run=%d targets=%d parallel=%d ok=%d wall=%.3f cpu=%.3f logins=%d",
                         run, count, parallel, ok.count, wall, used, bastionLogins))
            #expect(ok.count == count)
        }
    }

    @Test func checkOfManyServersBehindOneBastion() throws {
        let s = try TestServers.require()
        let count = Int(environment["BENCH_CHECK_TARGETS"] ?? "") ?? 2000
        let timeout = Double(environment["BENCH_CHECK_TIMEOUT"] ?? "") ?? 3
        let widths = (environment["BENCH_CHECK_SESSIONS"] ?? "16").split(separator: ",").compactMap { Int($0) }
        let bastion = hop(s, s.jump.b1, name: "bastion")
        // A third up, a third refused, a third silent, interleaved as an inventory would list them.
        let ports = [s.jump.t1.port, s.jump.t1ClosedPort, s.jump.t1SilentPort]
        let targets = (0..<count).map { i in
            OnlineCheck.Target(host: s.jump.t1.host, port: ports[i % 3], jumps: [bastion])
        }
        for width in widths {
            let logins = acceptedLogins(s.jump.b1.log)
            let cpu = cpuSeconds()
            let started = Date()
            let outcomes = try OnlineCheck(options: .init(timeout: timeout), sessionsPerBastion: width).check(targets)
            let wall = Date().timeIntervalSince(started)
            let used = cpuSeconds() - cpu
            func n(_ status: CheckStatus) -> Int { outcomes.filter { $0.status == status }.count }
            let bastionLogins = settled(min(width, count)) { acceptedLogins(s.jump.b1.log) - logins }
            print(String(format: "BENCH check targets=%d timeout=%.1f sessions=%d online=%d refused=%d timeout=%d "
                         + "other=%d wall=%.3f cpu=%.3f logins=%d ratio=%.2f", count, timeout, width,
                         n(.online), n(.refused), n(.timeout),
                         count - n(.online) - n(.refused) - n(.timeout), wall, used, bastionLogins, wall / timeout))
            // What the others were (a few distinct sentences), so a wrong count says why.
            let others = outcomes.filter { ![.online, .refused, .timeout].contains($0.status) }
            for text in Set(others.map { "\($0.status): \($0.error ?? "")" }).sorted().prefix(5) {
                print("BENCH check other: \(text)")
            }
            #expect(n(.online) == (count + 2) / 3)
        }
    }
}
