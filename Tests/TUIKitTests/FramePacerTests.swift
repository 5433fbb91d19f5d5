import Testing
import TUIKit

@Suite struct FramePacerTests {
    @Test func drawsAtOnceThenAtMostOncePerInterval() {
        let start = ContinuousClock.now
        var pacer = FramePacer(interval: .milliseconds(30))
        #expect(pacer.shouldDraw(at: start))
        pacer.didDraw(at: start)
        #expect(!pacer.shouldDraw(at: start + .milliseconds(50)))
        pacer.invalidate()
        #expect(!pacer.shouldDraw(at: start + .milliseconds(10)))
        #expect(pacer.pollTimeout(at: start + .milliseconds(10), idle: nil) == .milliseconds(20))
        #expect(pacer.shouldDraw(at: start + .milliseconds(30)))
        #expect(pacer.pollTimeout(at: start + .milliseconds(45), idle: nil) == .zero)
    }

    @Test func anIdleLoopSleepsForItsOwnTimeoutOrWithoutLimit() {
        let start = ContinuousClock.now
        var pacer = FramePacer()
        pacer.didDraw(at: start)
        #expect(pacer.pollTimeout(at: start + .seconds(5), idle: nil) == nil)
        #expect(pacer.pollTimeout(at: start + .seconds(5), idle: .milliseconds(100)) == .milliseconds(100))
        #expect(pacer.sinceLastFrame(at: start + .seconds(5)) == .seconds(5))
    }
}
