import Testing
import TUIKit

@Suite struct TextViewTests {
    private func scrollback(_ count: Int) -> ScrollbackBuffer {
        var scrollback = ScrollbackBuffer(maxLines: 1000)
        for n in 0..<count { scrollback.appendLine("line \(n)") }
        return scrollback
    }

    @Test func followingShowsTheNewestLines() {
        let lines = scrollback(20)
        var state = TextViewState()
        var buffer = Buffer(width: 8, height: 3)
        TextView().render(lines, in: buffer.area, buffer: &buffer, state: &state)
        #expect(buffer.lines() == ["line 17 ", "line 18 ", "line 19 "])
        #expect(state.top == 17)
    }

    @Test func scrollingUpStopsFollowingAndTheBottomResumesIt() {
        var lines = scrollback(20)
        var state = TextViewState()
        state.scroll(by: -5, in: lines, height: 3)
        #expect(!state.follow)
        #expect(state.top == 12)
        lines.appendLine("line 20")
        var buffer = Buffer(width: 8, height: 3)
        TextView().render(lines, in: buffer.area, buffer: &buffer, state: &state)
        #expect(buffer.lines()[0] == "line 12 ")
        state.scroll(by: 100, in: lines, height: 3)
        #expect(state.follow)
        state.scroll(by: -1000, in: lines, height: 3)
        #expect(state.top == 0)
    }

    @Test func droppedLinesMoveTheTopForward() {
        var lines = ScrollbackBuffer(maxLines: 5)
        for n in 0..<5 { lines.appendLine("l\(n)") }
        var state = TextViewState(top: 0, follow: false)
        for n in 5..<9 { lines.appendLine("l\(n)") }
        var buffer = Buffer(width: 3, height: 2)
        TextView().render(lines, in: buffer.area, buffer: &buffer, state: &state)
        #expect(state.top == 4)
        #expect(buffer.lines() == ["l4 ", "l5 "])
    }

    @Test func searchMatchesAreHighlightedAndTheCurrentOneStandsOut() {
        var lines = ScrollbackBuffer(maxLines: 10)
        lines.appendLine("日 err x err")
        var state = TextViewState()
        let current = SearchMatch(line: 0, byteRange: 10..<13)
        var buffer = Buffer(width: 12, height: 1)
        let view = TextView(highlight: "err", currentMatch: current)
        view.render(lines, in: buffer.area, buffer: &buffer, state: &state)
        #expect(buffer.lines() == ["日 err x err"])
        #expect(buffer.styleMap() == ["   AAA   BBB", "--", "A: fg=black bg=yellow",
                                      "B: fg=black bg=yellow bold reverse"])
    }

    @Test func sidewaysScrollNeverShowsHalfAWideCharacter() {
        var lines = ScrollbackBuffer(maxLines: 10)
        lines.appendLine("日本語")
        var state = TextViewState(left: 1)
        var buffer = Buffer(width: 6, height: 1)
        TextView().render(lines, in: buffer.area, buffer: &buffer, state: &state)
        #expect(buffer.lines() == [" 本語 "])
    }
}
