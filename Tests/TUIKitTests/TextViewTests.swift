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

    @Test func aWrappedLineContinuesOnTheNextRowsWithAMarkerAndIsReadableToItsEnd() {
        var lines = ScrollbackBuffer(maxLines: 10)
        lines.appendLine("short")
        lines.appendLine("abcdefghijklmnopqrstuvwxyz")
        var state = TextViewState()
        var buffer = Buffer(width: 10, height: 5)
        TextView(layout: .wrap(marker: "↩")).render(lines, in: buffer.area, buffer: &buffer, state: &state)
        #expect(buffer.lines() == ["short     ", "abcdefghi↩", "jklmnopqr↩", "stuvwxyz  ", "          "])
        #expect(buffer.styleMap() == ["          ", "         A", "         A", "          ", "          ", "--",
                                      "A: dim"])
        // A line exactly as wide as the view is one row, without a marker.
        var exact = ScrollbackBuffer(maxLines: 10)
        exact.appendLine("0123456789")
        var exactState = TextViewState()
        var one = Buffer(width: 10, height: 2)
        TextView(layout: .wrap(marker: "↩")).render(exact, in: one.area, buffer: &one, state: &exactState)
        #expect(one.lines() == ["0123456789", "          "])
    }

    @Test func wrappedRowsScrollOneByOneAndFollowingShowsTheLastRow() {
        var lines = ScrollbackBuffer(maxLines: 10)
        lines.appendLine("first")
        lines.appendLine(String(repeating: "x", count: 18) + "END")
        var state = TextViewState()
        var buffer = Buffer(width: 10, height: 2)
        let view = TextView(layout: .wrap(marker: "\\"))
        view.render(lines, in: buffer.area, buffer: &buffer, state: &state)
        #expect(buffer.lines() == ["xxxxxxxxx\\", "END       "])
        #expect(state.top == 1 && state.topRow == 1)
        state.scroll(by: -1, in: lines, height: 2, wrapWidth: 10)
        #expect(!state.follow && state.top == 1 && state.topRow == 0)
        state.scroll(by: -1, in: lines, height: 2, wrapWidth: 10)
        #expect(state.top == 0 && state.topRow == 0)
        view.render(lines, in: buffer.area, buffer: &buffer, state: &state)
        #expect(buffer.lines() == ["first     ", "xxxxxxxxx\\"])
        state.scroll(by: 5, in: lines, height: 2, wrapWidth: 10)
        #expect(state.follow && state.top == 1 && state.topRow == 1)
        // A match on the last row of a long line is revealed by its row.
        var back = TextViewState()
        back.scrollToTop(in: lines)
        back.reveal(line: 1, row: 2, in: lines, height: 2, wrapWidth: 10)
        view.render(lines, in: buffer.area, buffer: &buffer, state: &back)
        #expect(buffer.lines().contains("END       "))
    }

    @Test func aClippedLineShowsMarkersWhereTextIsHidden() {
        var lines = ScrollbackBuffer(maxLines: 10)
        lines.appendLine("abcdefghijklmnop")
        lines.appendLine("fits")
        var state = TextViewState()
        var buffer = Buffer(width: 8, height: 2)
        let view = TextView(layout: .clipMarked(left: "‹", right: "›"))
        view.render(lines, in: buffer.area, buffer: &buffer, state: &state)
        #expect(buffer.lines() == ["abcdefg›", "fits    "])
        state.left = 4
        view.render(lines, in: buffer.area, buffer: &buffer, state: &state)
        #expect(buffer.lines() == ["‹fghijk›", "‹       "], "the short line is hidden to the left: marked too")
        state.left = 9
        view.render(lines, in: buffer.area, buffer: &buffer, state: &state)
        #expect(buffer.lines() == ["‹klmnop ", "‹       "])
    }
}
