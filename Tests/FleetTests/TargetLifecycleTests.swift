@testable import Fleet
import SSH
import Testing

/// The per-target state machine and status rules, without threads or time.
@Suite struct TargetLifecycleTests {
    @Test func aTargetThatEndsOnItsOwnIsDone() {
        var life = TargetLifecycle()
        #expect(life.state == .waiting)
        life.start()
        #expect(life.state == .running)
        let step1 = life.finish(.ok)
        #expect(step1)
        #expect(life.state == .done)
        let step2 = life.deadline()
        let step3 = life.cancel()
        let step4 = life.graceEnded()
        #expect(step2 == .none && step3 == .none && step4 == .none)
    }

    @Test func theDeadlineStopsItOnceAndItsStatusDecidesTheEnd() {
        var life = TargetLifecycle()
        life.start()
        let step1 = life.deadline()
        #expect(step1 == .stop)
        #expect(life.deadlinePassed && life.stopping)
        let step2 = life.deadline()
        #expect(step2 == .none)
        let step3 = life.finish(.timedOut)
        #expect(step3)
        #expect(life.state == .timedOut)
        let step4 = life.graceEnded()
        #expect(step4 == .none)
    }

    @Test func aTargetStillRunningWhenTheGraceEndsIsAbandonedAndItsLateResultDropped() {
        var life = TargetLifecycle()
        life.start()
        let step1 = life.deadline()
        #expect(step1 == .stop)
        let step2 = life.graceEnded()
        #expect(step2 == .giveUp(.timedOut))
        #expect(life.state == .abandoned)
        let step3 = life.graceEnded()
        #expect(step3 == .none)
        let step4 = life.finish(.unreachable)
        #expect(!step4)
        #expect(life.state == .abandoned)
    }

    @Test func aCancelStopsItAndAGiveUpAfterItIsCancelled() {
        var life = TargetLifecycle()
        life.start()
        let step1 = life.cancel()
        #expect(step1 == .stop)
        #expect(life.cancelRequested && !life.deadlinePassed)
        let step2 = life.cancel()
        #expect(step2 == .none)
        let step3 = life.graceEnded()
        #expect(step3 == .giveUp(.cancelled))
    }

    @Test func aCancelDuringTheDeadlinesGraceMakesTheGiveUpCancelled() {
        var life = TargetLifecycle()
        life.start()
        let step1 = life.deadline()
        #expect(step1 == .stop)
        let step2 = life.cancel()
        #expect(step2 == .none)
        let step3 = life.graceEnded()
        #expect(step3 == .giveUp(.cancelled))
    }

    @Test func aCancelledTargetThatStopsInTimeIsCancelled() {
        var life = TargetLifecycle()
        life.start()
        let step1 = life.cancel()
        #expect(step1 == .stop)
        let step2 = life.finish(.cancelled)
        #expect(step2)
        #expect(life.state == .cancelled)
    }

    @Test func nothingHappensToAWaitingTarget() {
        var life = TargetLifecycle()
        let step1 = life.deadline()
        let step2 = life.cancel()
        let step3 = life.graceEnded()
        #expect(step1 == .none && step2 == .none && step3 == .none)
        let step4 = life.finish(.ok)
        #expect(!step4)
        #expect(life.state == .waiting)
    }

    @Test func theConnectTimeoutIsClampedToTheTimeLeft() {
        #expect(TargetLifecycle.connectTimeout(configured: 10, left: 3) == (3, true))
        #expect(TargetLifecycle.connectTimeout(configured: 10, left: 10) == (10, true))
        #expect(TargetLifecycle.connectTimeout(configured: 2, left: 3) == (2, false))
        #expect(TargetLifecycle.connectTimeout(configured: 10, left: 0) == (0.001, true))
    }

    private func failure(_ phase: FleetFailure.Phase, _ kind: SSHError.Kind, _ message: String = "why")
        -> FleetFailure {
        FleetFailure(phase, SSHError(kind, "", message))
    }

    @Test func aConnectTimeOutIsTheDeadlinesExactlyWhenTheClampLimitedIt() {
        let timedOut = failure(.connect, .timedOut, "Connecting to h port 22 timed out after 3 s: …")
        // Whether the deadline's timer has fired by now does not matter: only the values known at start do.
        for fired in [false, true] {
            let limited = TargetLifecycle.classify(timedOut, deadlinePassed: fired, connectLimitedByDeadline: true,
                                                   timeout: 3)
            #expect(limited.status == .timedOut && limited.message == "No result within 3 s (still connecting).")
            let own = TargetLifecycle.classify(timedOut, deadlinePassed: fired, connectLimitedByDeadline: false,
                                               timeout: 3)
            #expect(own.status == .timedOut && own.message == "Connecting to h port 22 timed out after 3 s: …")
        }
    }

    @Test func theDeadlinesCancelIsTimedOutAndAnyOtherCancelIsCancelled() {
        let cancelled = failure(.connect, .cancelled)
        #expect(TargetLifecycle.classify(cancelled, deadlinePassed: true, connectLimitedByDeadline: false,
                                         timeout: 0.3) == (.timedOut, "No result within 0.3 s (still connecting)."))
        #expect(TargetLifecycle.classify(cancelled, deadlinePassed: false, connectLimitedByDeadline: true,
                                         timeout: 3) == (.cancelled, "Cancelled."))
        let command = failure(.command, .cancelled)
        #expect(TargetLifecycle.classify(command, deadlinePassed: true, connectLimitedByDeadline: false, timeout: 60)
            == (.timedOut, "No result within 60 s (the command was still running)."))
    }

    @Test func theCommandsTimeLimitIsTheDeadline() {
        let limit = failure(.command, .commandTimedOut)
        #expect(TargetLifecycle.classify(limit, deadlinePassed: false, connectLimitedByDeadline: false, timeout: 2.25)
            == (.timedOut, "No result within 2.2 s (the command was still running)."))
    }

    @Test func otherErrorsKeepTheirSentence() {
        #expect(TargetLifecycle.classify(failure(.connect, .refused, "refused"), deadlinePassed: false,
                                         connectLimitedByDeadline: true, timeout: 3) == (.refused, "refused"))
        #expect(TargetLifecycle.classify(failure(.command, .disconnected, "gone"), deadlinePassed: false,
                                         connectLimitedByDeadline: false, timeout: 3) == (.failed, "gone"))
        #expect(TargetLifecycle.classify(failure(.command, .timedOut, "silent"), deadlinePassed: false,
                                         connectLimitedByDeadline: false, timeout: 3) == (.timedOut, "silent"))
    }

    @Test func theGivenUpSentences() {
        #expect(TargetLifecycle.givenUpMessage(.timedOut, timeout: 0.2, grace: 2)
            == "No result within 0.2 s; given up after 2 s more (it did not stop when told).")
        #expect(TargetLifecycle.givenUpMessage(.cancelled, timeout: 60, grace: 0.2)
            == "Cancelled; given up after 0.2 s more (it did not stop when told).")
    }
}
