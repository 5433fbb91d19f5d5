import Foundation
import Testing
import TestSupport
@testable import SSH

/// Per-command latency of the persistent shell against a channel per command, on one session to the harness sshd.
/// Only with ESSH_BENCH_SHELL=FILE (bench/bench-session-shell.sh sets it): it writes one line per measurement,
/// `KIND SECONDS`, to FILE. Rounds alternate the two ways (and which goes first), so the machine's other work falls on
/// both alike.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["ESSH_BENCH_SHELL"] != nil))
struct SessionShellBenchmark {
    @Test func persistentShellAgainstAChannelPerCommand() throws {
        let s = try TestServers.require()
        let environment = ProcessInfo.processInfo.environment
        let path = try #require(environment["ESSH_BENCH_SHELL"])
        let rounds = Int(environment["ESSH_BENCH_ROUNDS"] ?? "") ?? 200
        let command = environment["ESSH_BENCH_COMMAND"] ?? "true"
        var lines: [String] = []
        let session = try connect(s)

        // Starting the shell (channel, exec, the probe's answer), once per session: 20 times.
        for _ in 0..<20 {
            let shell = SessionShell(session: session)
            let started = Date()
            #expect(try shell.start() == .persistent)
            lines.append("start \(Date().timeIntervalSince(started))")
            shell.close()
        }

        let shell = SessionShell(session: session)
        #expect(try shell.start() == .persistent)
        for _ in 0..<10 {  // warm-up, not recorded
            _ = try shell.run(command, output: { _, _ in })
            _ = try session.run(command) { _, _ in }
        }
        for round in 0..<rounds {
            let order = round % 2 == 0 ? ["persistent", "exec"] : ["exec", "persistent"]
            for kind in order {
                let started = Date()
                let exit = kind == "persistent" ? try shell.run(command, output: { _, _ in })
                    : try session.run(command) { _, _ in }
                let took = Date().timeIntervalSince(started)
                #expect(exit.status == 0)
                lines.append("\(kind) \(took)")
            }
        }
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
    }
}
