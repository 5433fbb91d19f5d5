import Testing
import TUIKit

@Suite struct TestTerminalTests {
    @Test func drawingWritesOnlyWhatChangedUntilASuspensionForcesEverything() throws {
        let terminal = TestTerminal(size: Size(width: 10, height: 2))
        var frame = Buffer(size: terminal.size)
        frame.setString("hello", x: 0, y: 0)
        try terminal.draw(frame, cursor: nil)
        #expect(terminal.writes[0].map(\.cells.count) == [5])
        frame.setString("j", x: 0, y: 0)
        try terminal.draw(frame, cursor: Point(x: 1, y: 0))
        #expect(terminal.writes[1] == [CellRun(x: 0, y: 0, cells: [Cell("j")])])
        #expect(terminal.cursor == Point(x: 1, y: 0))
        let answer = try terminal.suspend { 42 }
        #expect(answer == 42)
        try terminal.draw(frame, cursor: nil)
        #expect(terminal.writes[2].map(\.cells.count) == [5])
    }

    @Test func queuedInputComesOutInOrderThenNothing() throws {
        let terminal = TestTerminal(size: Size(width: 80, height: 24))
        terminal.type(.character("a"), .enter)
        terminal.resize(to: Size(width: 100, height: 30))
        #expect(try terminal.poll(timeout: .zero) == .key(.character("a")))
        #expect(try terminal.poll(timeout: .zero) == .key(.enter))
        #expect(try terminal.poll(timeout: .zero) == .resize(Size(width: 100, height: 30)))
        #expect(try terminal.poll(timeout: .zero) == nil)
        #expect(terminal.size == Size(width: 100, height: 30))
        terminal.waker.wake()
        #expect(terminal.wakeCount == 1)
    }
}
