import Fleet
import Foundation
import Synchronization
import SSH
import Testing

@Suite struct FleetRunnerTests {
    @Test func everyStatusComesBackInTargetOrder() {
        let fake = FakeExecutor(behaviours: [
            "ok": .exit(status: 0, stdout: "hello\n"),
            "bad": .exit(status: 3, stderr: "oops\n"),
            "down": .connectError(SSHError(.refused, "ECONNREFUSED", "down refused the connection.")),
            "slow": .hang,
        ])
        let clock = ManualClock()
        let runner = FleetRunner(executor: fake, options: .init(parallel: 4, timeout: 0.3), clock: clock)
        let log = Recorder()
        let run = Background {
            runner.run(["ok", "bad", "down", "slow"].map(target), command: "x", onStart: { log.add("start \($0)") },
                       onFinish: { _, r in log.add(r.name) })
        }
        // The three quick ones are done and the slow one's deadline is armed (it is before its start is reported).
        log.waitUntil { Set($0).isSuperset(of: ["ok", "bad", "down", "start 3"]) }
        clock.advance(by: 0.3)
        let results = run.value
        #expect(results.map(\.name) == ["ok", "bad", "down", "slow"])
        #expect(results.map(\.status) == [.ok, .failed, .refused, .timedOut])
        #expect(results[0].exitStatus == 0 && results[0].stdoutText == "hello\n" && results[0].error == nil)
        #expect(results[1].exitStatus == 3 && results[1].stderrText == "oops\n")
        #expect(results[2].exitStatus == nil && results[2].error == "down refused the connection.")
        #expect(results[3].exitStatus == nil && results[3].error?.contains("No result within 0.3 s") == true)
    }

    @Test func aConnectTimeoutBeforeTheDeadlineKeepsItsOwnSentenceAndIsTimedOut() {
        let sentence = "127.0.0.1 did not answer within 2 s (connecting)."
        let fake = FakeExecutor(behaviours: ["silent": .connectError(SSHError(.timedOut, "", sentence))])
        let results = FleetRunner(executor: fake, options: .init(parallel: 1, timeout: 30), clock: ManualClock())
            .run([target("silent")], command: "x")
        #expect(results[0].status == .timedOut)
        #expect(results[0].error == sentence)
        // The target's own connect timeout (10 s) was shorter than its 30 s: passed as it was.
        #expect(fake.calls.all == ["silent 10.0"])
    }

    @Test func aConnectTimeoutThatTheDeadlineLimitedIsTimedOut() {
        // The never-answering server of `essh exec --timeout 3`: its connect timeout (10 s) is clamped to the 3 s
        // left, so a connect time-out is the deadline's and reads as such.
        let fake = FakeExecutor(behaviours: ["dropped": .connectError(SSHError(.timedOut, "", "timed out after 3 s"))])
        let results = FleetRunner(executor: fake, options: .init(parallel: 1, timeout: 3), clock: ManualClock())
            .run([target("dropped")], command: "x")
        #expect(fake.calls.all == ["dropped 3.0"])
        #expect(results[0].status == .timedOut)
        #expect(results[0].error == "No result within 3 s (still connecting).")
    }

    @Test func theSameServerIsTimedOutWhenItsDeadlineComesFirst() {
        // The other order of the same two events: the deadline cancels the connect before SSH's own timer ends.
        let fake = FakeExecutor(behaviours: ["dropped": .hangConnecting])
        let clock = ManualClock()
        let runner = FleetRunner(executor: fake, options: .init(parallel: 1, timeout: 3), clock: clock)
        let log = Recorder()
        let run = Background { runner.run([target("dropped")], command: "x", onStart: { log.add("start \($0)") }) }
        log.waitUntil { $0 == ["start 0"] }
        clock.advance(by: 3)
        let results = run.value
        #expect(results[0].status == .timedOut)
        #expect(results[0].error == "No result within 3 s (still connecting).")
        #expect(results[0].duration == 3)
    }

    @Test func aTargetStuckWhereCancellingCannotReachIsGivenUpAfterTheGraceAndItsSlotReused() {
        let fake = FakeExecutor(behaviours: ["stuck": .stuck(seconds: 4), "next": .exit(status: 0)])
        let clock = ManualClock()
        let runner = FleetRunner(executor: fake, options: .init(parallel: 1, timeout: 0.2, grace: 0.2), clock: clock)
        let log = Recorder()
        let run = Background {
            runner.run([target("stuck"), target("next")], command: "x", onStart: { log.add("start \($0)") })
        }
        log.waitUntil { $0 == ["start 0"] }
        clock.advance(by: 0.2)
        // Told to stop, it does not: the grace runs out and its slot goes to a new worker.
        clock.advance(by: 0.2)
        let results = run.value
        // The run ended while the stuck call is still inside the executor.
        #expect(fake.gauge.inside == 1)
        #expect(results[0].status == .timedOut)
        #expect(results[0].error?.contains("No result within 0.2 s; given up") == true)
        #expect(results[1].status == .ok)
    }

    @Test func aCancelGivesUpOnAStuckTargetAfterTheGraceToo() {
        let fake = FakeExecutor(behaviours: ["stuck": .stuck(seconds: 4)])
        let clock = ManualClock()
        let runner = FleetRunner(executor: fake, options: .init(parallel: 1, timeout: 60, grace: 0.2), clock: clock)
        let log = Recorder()
        let run = Background {
            runner.run([target("stuck")], command: "x", onStart: { _ in
                runner.cancel()
                log.add("cancelled")
            })
        }
        log.waitUntil { $0 == ["cancelled"] }
        clock.advance(by: 0.2)
        let results = run.value
        #expect(fake.gauge.inside == 1)
        #expect(results[0].status == .cancelled && results[0].error?.hasPrefix("Cancelled; given up") == true)
    }

    @Test func aHangingServerDoesNotDelayTheOthersReports() {
        let fake = FakeExecutor(behaviours: ["a": .exit(status: 0), "b": .exit(status: 0, delay: 0.05)])
        let clock = ManualClock()
        let runner = FleetRunner(executor: fake, options: .init(parallel: 8, timeout: 1), clock: clock)
        let log = Recorder()
        let started = Recorder()
        let run = Background {
            runner.run(["dead", "a", "b"].map(target), command: "x", onStart: { started.add("start \($0)") },
                       onFinish: { _, r in log.add(r.name) })
        }
        log.waitUntil { $0.count == 2 }
        started.waitUntil { $0.contains("start 0") }
        clock.advance(by: 1)
        _ = run.value
        #expect(log.all == ["a", "b", "dead"])
    }

    @Test func parallelismIsBounded() {
        var behaviours: [String: FakeExecutor.Behaviour] = [:]
        for i in 0..<20 { behaviours["s\(i)"] = .exit(status: 0, delay: 0.02) }
        let fake = FakeExecutor(behaviours: behaviours)
        let results = FleetRunner(executor: fake, options: .init(parallel: 3, timeout: 5), clock: ManualClock())
            .run((0..<20).map { target("s\($0)") }, command: "x")
        #expect(results.allSatisfy { $0.status == .ok })
        #expect(fake.gauge.maximum == 3)
    }

    @Test func cancelKeepsWhatFinishedAndMarksTheRestCancelled() {
        let fake = FakeExecutor(behaviours: ["quick": .exit(status: 0, stdout: "done\n")])
        let runner = FleetRunner(executor: fake, options: .init(parallel: 2, timeout: 60), clock: ManualClock())
        let log = Recorder()
        let results = runner.run(["quick", "hang1", "hang2", "later"].map(target), command: "x",
                                 onFinish: { _, r in
                                     log.add(r.name)
                                     if r.name == "quick" { runner.cancel() }
                                 })
        #expect(results[0].status == .ok && results[0].stdoutText == "done\n")
        #expect(results[1...].allSatisfy { $0.status == .cancelled })
        #expect(Set(log.all) == ["quick", "hang1", "hang2", "later"])
    }

    @Test func outputIsStreamedBeforeTheResultAndCapped() {
        let fake = FakeExecutor(behaviours: ["big": .exit(status: 0, stdout: String(repeating: "x", count: 100))])
        let runner = FleetRunner(executor: fake, options: .init(parallel: 1, timeout: 5, outputLimit: 10),
                                 clock: ManualClock())
        let log = Recorder()
        let results = runner.run([target("big")], command: "x",
                                 onStart: { log.add("start \($0)") },
                                 onOutput: { i, _, bytes in log.add("output \(i) \(bytes.count)") },
                                 onFinish: { i, _ in log.add("finish \(i)") })
        #expect(log.all == ["start 0", "output 0 100", "finish 0"])
        #expect(results[0].stdout.count == 10 && results[0].truncated)
    }

    @Test func aTargetWithAProblemHasItsStatusWithoutTrying() {
        let fake = FakeExecutor(behaviours: [:])
        var t = target("nokey")
        t.problem = FleetTarget.Problem(.configError, "The key file /x does not exist.")
        let results = FleetRunner(executor: fake, options: .init(parallel: 1, timeout: 5), clock: ManualClock())
            .run([t], command: "x")
        #expect(results[0].status == .configError && results[0].error == "The key file /x does not exist.")
        #expect(fake.gauge.maximum == 0)
    }

    /// Each way connecting or logging in fails has its own status, no longer `unreachable` for all of them.
    @Test func connectFailuresHaveTheirOwnStatuses() {
        let kinds: [(String, SSHError.Kind, FleetStatus)] = [
            ("nxdomain", .nameNotFound, .dnsError), ("closed", .refused, .refused),
            ("noroute", .unreachable, .unreachable), ("http", .notSSH, .notSSH),
            ("stranger", .hostKeyUnknown, .hostKeyUnknown), ("declined", .hostKeyRejected, .hostKeyUnknown),
            ("mitm", .hostKeyChanged, .hostKeyChanged), ("revoked", .hostKeyRevoked, .hostKeyRevoked),
            ("denied", .authenticationFailed, .authFailed), ("nokey", .keyFile, .configError),
            ("kh", .knownHostsFile, .configError), ("old", .noCommonAlgorithm, .connectFailed),
            ("gone", .disconnected, .connectFailed),
        ]
        var behaviours: [String: FakeExecutor.Behaviour] = [:]
        for (name, kind, _) in kinds { behaviours[name] = .connectError(SSHError(kind, "", "\(name) failed.")) }
        let results = FleetRunner(executor: FakeExecutor(behaviours: behaviours),
                                  options: .init(parallel: 4, timeout: 30), clock: ManualClock())
            .run(kinds.map { target($0.0) }, command: "x")
        #expect(results.map(\.status) == kinds.map(\.2))
        #expect(results.map(\.error) == kinds.map { "\($0.0) failed." })
        #expect(results.allSatisfy { $0.status.isConnectFailure })
    }

    @Test func theFrontEndWordsTheSessionsErrors() {
        let error = SSHError(.hostKeyUnknown, "", "The host key of h is not known.",
                             remedy: .confirmHostKey(knownHostsFile: "/kh"))
        let fake = FakeExecutor(behaviours: ["h": .connectError(error)])
        let cli = FleetRunner(executor: fake, options: .init(parallel: 1, timeout: 30), clock: ManualClock())
            .run([target("h")], command: "x")
        #expect(cli[0].error?.contains("--host-key-policy ask") == true)
        let own = FleetRunner(executor: fake, options: .init(parallel: 1, timeout: 30, describe: { $0.situation + " (own)" }),
                              clock: ManualClock()).run([target("h")], command: "x")
        #expect(own[0].error == "The host key of h is not known. (own)")
    }

    @Test func askPolicyBecomesStrictInAFleet() {
        var options = ConnectOptions(host: "h", user: "u", knownHostsFile: "/dev/null")
        options.hostKeyPolicy = .ask
        #expect(FleetTarget(name: "h", options: options).options.hostKeyPolicy == .strict)
        options.hostKeyPolicy = .acceptNew
        #expect(FleetTarget(name: "h", options: options).options.hostKeyPolicy == .acceptNew)
    }

    @Test func parallelismFitsTheOpenFileLimit() {
        #expect(FleetRunner.parallel(64, openFiles: 1024) == 64)
        #expect(FleetRunner.parallel(1024, openFiles: 1024) == 320)
        #expect(FleetRunner.parallel(8, openFiles: 10) == 1)
    }

    @Test func parallelismFitsTheAddressSpaceLimitOrTheRunIsRefused() {
        let mib = 1 << 20
        // No limit: only the open files count.
        let unlimited = FleetRunner.fit(64, openFiles: 1024, addressSpace: nil, inUse: 180 * mib)
        #expect(unlimited.parallel == 64 && unlimited.lowered == nil && unlimited.refusal == nil)
        // 150 MiB with 120 in use: 6 MiB left after the reserve, six workers, said so.
        let lowered = FleetRunner.fit(64, openFiles: 1024, addressSpace: 150 * mib, inUse: 120 * mib)
        #expect(lowered.parallel == 6)
        #expect(lowered.lowered?.contains("ulimit -v") == true)
        #expect(lowered.refusal == nil)
        // No room at all: refused with what to do.
        let refused = FleetRunner.fit(64, openFiles: 1024, addressSpace: 130 * mib, inUse: 120 * mib)
        #expect(refused.parallel == 0)
        #expect(refused.refusal?.contains("Raise the limit") == true)
        // The open-file limit lowers too, and says which limit.
        #expect(FleetRunner.fit(1024, openFiles: 1024, addressSpace: nil).lowered?.contains("ulimit -n") == true)
    }
}

/// Records the pool each target was given.
private final class PoolRecordingExecutor: FleetExecutor {
    let pools = Mutex<[ObjectIdentifier]>([])
    let seen = Mutex<[JumpPool]>([])

    func execute(_ target: FleetTarget, command: String, connectTimeout: Double, deadline: Date,
                 cancel: Cancellation, output: (SSH.OutputStream, UnsafeRawBufferPointer) -> Void)
        throws(FleetFailure) -> CommandExit {
        throw FleetFailure(.connect, SSHError(.library, "no pool", "Called without the run's pool."))
    }

    func execute(_ target: FleetTarget, command: String, connectTimeout: Double, deadline: Date,
                 cancel: Cancellation, jumps: JumpPool,
                 output: (SSH.OutputStream, UnsafeRawBufferPointer) -> Void) throws(FleetFailure) -> CommandExit {
        pools.withLock { $0.append(ObjectIdentifier(jumps)) }
        seen.withLock { if $0.isEmpty { $0.append(jumps) } }
        return CommandExit(status: 0, signal: nil)
    }
}

@Suite struct FleetRunnerJumpPoolTests {
    @Test func everyTargetOfARunSharesOnePoolWhichIsClosedWhenTheRunEnds() throws {
        let executor = PoolRecordingExecutor()
        let targets = (0..<5).map { FleetTarget(name: "t\($0)", options: ConnectOptions(host: "h\($0)", user: "u",
                                                                                          knownHostsFile: "/dev/null")) }
        let results = FleetRunner(executor: executor, options: .init(parallel: 3, timeout: 5), clock: ManualClock())
            .run(targets, command: "true")
        #expect(results.allSatisfy { $0.status == .ok })
        #expect(Set(executor.pools.withLock { $0 }).count == 1)
        #expect(executor.pools.withLock { $0 }.count == 5)
        // A second run gets a pool of its own.
        _ = FleetRunner(executor: executor, options: .init(parallel: 3, timeout: 5), clock: ManualClock())
            .run(targets, command: "true")
        #expect(Set(executor.pools.withLock { $0 }).count == 2)
        // The first run's pool was closed: it makes no bastion session any more.
        let pool = try #require(executor.seen.withLock { $0.first })
        var behind = ConnectOptions(host: "t", user: "u", knownHostsFile: "/dev/null")
        behind.jumps = [ConnectOptions(host: "b", user: "u", knownHostsFile: "/dev/null")]
        do {
            _ = try pool.relay(for: behind, prompter: NonInteractivePrompter(), deadline: Date() + 1, cancel: nil)
            Issue.record("a closed pool made a bastion session")
        } catch {
            #expect(error.situation.hasPrefix("The run is over"))
        }
    }

    @Test func chainsDifferByAnyHopsLogin() {
        func chain(_ user: String, key: String = "/k", port: Int = 22) -> ConnectOptions {
            var hop = ConnectOptions(host: "b", port: port, user: user, knownHostsFile: "/kh")
            hop.identityFiles = [key]
            var target = ConnectOptions(host: "t", user: "u", knownHostsFile: "/kh")
            target.jumps = [hop]
            return target
        }
        #expect(JumpPool.chainIdentity(of: chain("a")) == JumpPool.chainIdentity(of: chain("a")))
        #expect(JumpPool.chainIdentity(of: chain("a")) != JumpPool.chainIdentity(of: chain("b")))
        #expect(JumpPool.chainIdentity(of: chain("a")) != JumpPool.chainIdentity(of: chain("a", key: "/k2")))
        #expect(JumpPool.chainIdentity(of: chain("a")) != JumpPool.chainIdentity(of: chain("a", port: 2222)))
        // The target itself is no part of the chain.
        var other = chain("a")
        other.host = "t2"
        #expect(JumpPool.chainIdentity(of: chain("a")) == JumpPool.chainIdentity(of: other))
    }
}
