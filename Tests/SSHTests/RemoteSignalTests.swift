import Foundation
import Synchronization
import Testing
import TestSupport
@testable import SSH

/// The escalation's schedule, without a server.
@Suite struct StopProgressTests {
    @Test func theStandardEscalationSendsINTThenTERMThenKILLHalfASecondApart() {
        var p = StopProgress(.standard)
        #expect(StopEscalation.standard.limit == 1.5)
        #expect(p.next(elapsed: 0, commandEnded: false) == .send("INT"))
        #expect(p.next(elapsed: 0.01, commandEnded: false) == .wait(until: 0.5))
        #expect(p.next(elapsed: 0.5, commandEnded: false) == .send("TERM"))
        #expect(p.next(elapsed: 0.6, commandEnded: false) == .wait(until: 1.0))
        #expect(p.next(elapsed: 1.0, commandEnded: false) == .send("KILL"))
        #expect(p.next(elapsed: 1.2, commandEnded: false) == .wait(until: 1.5))
        #expect(p.next(elapsed: 1.5, commandEnded: false) == .giveUp)
        #expect(p.sent == ["INT", "TERM", "KILL"])
    }

    @Test func theEndOfTheCommandStopsTheEscalation() {
        var p = StopProgress(.standard)
        #expect(p.next(elapsed: 0, commandEnded: false) == .send("INT"))
        #expect(p.next(elapsed: 0.7, commandEnded: true) == .ended)
        #expect(p.sent == ["INT"])
        var already = StopProgress(.standard)
        #expect(already.next(elapsed: 0, commandEnded: true) == .ended)
        #expect(already.sent.isEmpty)
    }

    @Test func lateStepsNeverPushTheEndPastTheLimit() {
        var p = StopProgress(.standard)
        // The first look comes late (a slow read pass): the steps that are due go out at once, one per turn.
        #expect(p.next(elapsed: 0.9, commandEnded: false) == .send("INT"))
        #expect(p.next(elapsed: 0.9, commandEnded: false) == .send("TERM"))
        #expect(p.next(elapsed: 0.9, commandEnded: false) == .wait(until: 1.0))
        // Past the limit nothing more is sent: the channel is closed.
        #expect(p.next(elapsed: 1.6, commandEnded: false) == .giveUp)
        #expect(p.sent == ["INT", "TERM"])
    }

    @Test func closeOnlySendsNothingAndGivesUpAtOnce() {
        var p = StopProgress(.closeOnly)
        #expect(StopEscalation.closeOnly.limit == 0)
        #expect(p.next(elapsed: 0, commandEnded: false) == .giveUp)
        #expect(p.sent.isEmpty)
    }

    @Test func theReportSaysWhatWasSentAndSeen() {
        #expect(StopReport(outcome: .ended, sent: ["INT", "TERM"]).description
                == "the remote command ended after INT, TERM")
        #expect(StopReport(outcome: .stillRunning, sent: ["INT", "TERM", "KILL"]).description
                .hasPrefix("no end of the remote command seen after INT, TERM, KILL"))
    }
}

/// What happens on the real sshd (OpenSSH 9.2, no PTY) to a command eSSH gives up on. Each test's command carries a
/// marker of its own (`exec -a MARKER sleep 300`), found with `pgrep -u essh-test -f MARKER`.
@Suite struct RemoteSignalTests {
    /// Runs `command` until `marker` shows up on the server, then cancels; returns the error and the seconds from
    /// the cancel until `run` returned.
    func runAndCancel(_ session: SSHSession, _ command: String, marker: String, user: String,
                      stop: StopEscalation = .standard) throws -> (SSHError?, Double) {
        let cancel = try Cancellation()
        let cancelledAt = Mutex<Date?>(nil)
        DispatchQueue.global().async {
            _ = RemoteProcesses.waitUntilRunning(marker, user: user)
            cancelledAt.withLock { $0 = Date() }
            cancel.cancel()
        }
        let error = sshError { _ = try session.run(command, timeout: 30, cancel: cancel, stop: stop) { _, _ in } }
        let took = Date().timeIntervalSince(cancelledAt.withLock { $0 } ?? Date.distantPast)
        return (error, took)
    }

    @Test func aCancelledCommandGetsINTAndIsGoneFromTheServer() throws {
        let s = try TestServers.require()
        let marker = RemoteProcesses.marker("run")
        defer { RemoteProcesses.kill(marker, user: s.user) }
        let session = try connect(s)
        let (error, took) = try runAndCancel(session, RemoteProcesses.sleeper(marker), marker: marker, user: s.user)
        #expect(error?.kind == .cancelled)
        #expect(error?.detail.contains("the remote command ended after INT") == true, "\(String(describing: error))")
        #expect(took < 1.4, "INT ends `sleep` at once; took \(took) s")
        #expect(RemoteProcesses.waitUntilGone(marker, user: s.user), "still running on the server")
        #expect(try session.capture("echo still here").stdout == Array("still here\n".utf8))
    }

    @Test func aTimedOutCommandIsGoneFromTheServer() throws {
        let s = try TestServers.require()
        let marker = RemoteProcesses.marker("timeout")
        defer { RemoteProcesses.kill(marker, user: s.user) }
        let session = try connect(s)
        let error = sshError { _ = try session.capture(RemoteProcesses.sleeper(marker), timeout: 1) }
        #expect(error?.kind == .commandTimedOut)
        #expect(error?.detail.contains("ended after INT") == true, "\(String(describing: error))")
        #expect(RemoteProcesses.waitUntilGone(marker, user: s.user), "still running on the server")
    }

    /// A shell ignoring `ignored` (and its child: an ignored signal stays ignored across exec) ends at the next
    /// step, half a second per step after INT.
    @Test(arguments: [("INT", "INT, TERM", 0.5), ("INT TERM", "INT, TERM, KILL", 1.0)])
    func aCommandIgnoringSignalsGetsTheNextOne(ignored: String, sent: String, after: Double) throws {
        let s = try TestServers.require()
        let marker = RemoteProcesses.marker("trap")
        defer { RemoteProcesses.kill(marker, user: s.user) }
        let session = try connect(s)
        let (error, took) = try runAndCancel(session, "trap '' \(ignored); (\(RemoteProcesses.sleeper(marker)))",
                                             marker: marker, user: s.user)
        #expect(error?.kind == .cancelled)
        #expect(error?.detail.contains("ended after \(sent)") == true, "\(String(describing: error))")
        #expect(took >= after - 0.05 && took < after + 1.5, "took \(took) s")
        #expect(RemoteProcesses.waitUntilGone(marker, user: s.user), "still running on the server")
    }

    /// Cancels at moments from 0 to 6 ms after `run` began, 0.2 ms apart — while the channel opens, while the exec
    /// request waits for its answer (on loopback that window is about a millisecond wide), while the command runs:
    /// whenever the command did start, it is gone afterwards.
    @Test func aCancelAtAnyMomentLeavesNothingRunning() throws {
        let s = try TestServers.require()
        let session = try connect(s)
        var whileStarting = 0
        for step in 0..<30 {
            let marker = RemoteProcesses.marker("race")
            defer { RemoteProcesses.kill(marker, user: s.user) }
            let cancel = try Cancellation()
            DispatchQueue.global().asyncAfter(deadline: .now() + Double(step) * 0.0002) { cancel.cancel() }
            let error = sshError { _ = try session.run(RemoteProcesses.sleeper(marker), cancel: cancel) { _, _ in } }
            #expect(error?.kind == .cancelled)
            if error?.message == "Cancelled while starting the command." { whileStarting += 1 }
            #expect(RemoteProcesses.waitUntilGone(marker, user: s.user), "left running (cancel at \(step) × 0.2 ms)")
        }
        // Not asserted (it depends on the machine's speed); seen: 2 to 6 of the 30 land in the exec request, and
        // with the command left unstopped there, this test failed on each of them.
        print("RemoteSignalTests: \(whileStarting) of 30 cancels landed while the command was starting")
        #expect(try session.capture("echo still here").stdout == Array("still here\n".utf8))
    }

    /// The behaviour the escalation exists for, and proof that the checks above can fail: without a PTY, sshd does
    /// not stop a command whose channel is closed (a command that never writes runs on).
    @Test func closingTheChannelAloneLeavesTheCommandRunning() throws {
        let s = try TestServers.require()
        let marker = RemoteProcesses.marker("closeonly")
        defer { RemoteProcesses.kill(marker, user: s.user) }
        let session = try connect(s)
        let (error, took) = try runAndCancel(session, RemoteProcesses.sleeper(marker), marker: marker, user: s.user,
                                             stop: .closeOnly)
        #expect(error?.kind == .cancelled)
        #expect(took < 1)
        #expect(!RemoteProcesses.waitUntilGone(marker, user: s.user, timeout: 1.5), "sshd stopped it after all")
    }

    /// OpenSSH refuses signal requests for a forced command ("refusing to send signal … to forced-command
    /// session"): the escalation runs its course, closes the channel and returns within its limit.
    @Test func aServerRefusingSignalsGetsTheChannelClosedWithinTheLimit() throws {
        let s = try TestServers.require()
        let marker = RemoteProcesses.marker("forced")
        defer { RemoteProcesses.kill(marker, user: s.user) }
        let sshd = try ExtraSSHD(servers: s, extra: ["ForceCommand \(RemoteProcesses.sleeper(marker))"])
        defer { sshd.stop() }
        let dir = try TempDir()
        defer { dir.cleanup() }
        var o = options(s, port: sshd.port)
        o.knownHostsFile = dir.file("known_hosts")
        try (try sshd.knownHostsLine(servers: s, keyType: "ed25519") + "\n")
            .write(toFile: o.knownHostsFile, atomically: true, encoding: .utf8)
        let session = try connect(s, o)
        let (error, took) = try runAndCancel(session, "true", marker: marker, user: s.user)
        #expect(error?.kind == .cancelled)
        #expect(error?.detail.contains("no end of the remote command seen after INT, TERM, KILL") == true,
                "\(String(describing: error))")
        #expect(took >= 1.4 && took < 3, "the whole escalation, no more; took \(took) s")
        #expect(sshd.log.contains("refusing to send signal INT to forced-command session"))
    }

    /// A server that stops answering (its session process stopped with SIGSTOP) must not hold the caller: the
    /// escalation gives up at its limit.
    @Test func aServerThatStopsAnsweringDoesNotHoldTheCaller() throws {
        let s = try TestServers.require()
        let marker = RemoteProcesses.marker("stopped")
        defer { RemoteProcesses.kill(marker, user: s.user) }
        let session = try connect(s)
        let cancel = try Cancellation()
        let sessionProcess = Mutex<pid_t?>(nil)
        defer { if let pid = sessionProcess.withLock({ $0 }) { kill(pid, SIGCONT) } }
        var cancelledAt = Date.distantPast
        // $PPID is the sshd process serving this session: stopped, it keeps the TCP connection but reads nothing.
        let error = sshError {
            _ = try session.run("echo $PPID; \(RemoteProcesses.sleeper(marker))", timeout: 30, cancel: cancel) { _, b in
                guard let pid = pid_t(String(decoding: b, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
                else { return }
                sessionProcess.withLock { $0 = pid }
                kill(pid, SIGSTOP)
                cancelledAt = Date()
                cancel.cancel()
            }
        }
        let took = Date().timeIntervalSince(cancelledAt)
        #expect(sessionProcess.withLock { $0 } != nil)
        #expect(error?.kind == .cancelled)
        #expect(took < 3, "took \(took) s")
    }
}
