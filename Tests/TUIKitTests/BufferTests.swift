import Testing
@testable import TUIKit

@Suite struct BufferTests {
    @Test func textIsClippedToTheRectangle() {
        var buffer = Buffer(width: 10, height: 2)
        let end = buffer.setString("abcdefgh", x: 2, y: 0, clip: Rect(x: 3, y: 0, width: 4, height: 1))
        #expect(buffer.lines()[0] == "   bcde   ")
        #expect(end == 7)
        buffer.setString("zzz", x: 0, y: 1, clip: Rect(x: 0, y: 0, width: 10, height: 1))
        #expect(buffer.lines()[1] == "          ")
    }

    @Test func wideCharacterTakesTwoCellsWithAContinuation() {
        var buffer = Buffer(width: 6, height: 1)
        buffer.setString("a日b", x: 0, y: 0)
        #expect(buffer.lines() == ["a日b  "])
        #expect(buffer[1, 0].width == 2)
        #expect(buffer[2, 0].isContinuation)
        #expect(buffer[3, 0].text == "b")
    }

    @Test func wideCharacterIsNeverSplitAtTheClipEdge() {
        var buffer = Buffer(width: 6, height: 1)
        let end = buffer.setString("ab日", x: 0, y: 0, clip: Rect(x: 0, y: 0, width: 3, height: 1))
        #expect(buffer.lines() == ["ab    "])
        #expect(end == 2)
        buffer.setString("日本", x: 5, y: 0)
        #expect(buffer[5, 0].text == " ")
    }

    @Test func overwritingHalfAWideCharacterBlanksTheOtherHalf() {
        var buffer = Buffer(width: 6, height: 1)
        buffer.setString("日本", x: 0, y: 0)
        buffer.setString("x", x: 1, y: 0)
        #expect(buffer.lines() == [" x本  "])
        buffer.setString("y", x: 2, y: 0)
        #expect(buffer.lines() == [" xy   "])
        #expect(!buffer[3, 0].isContinuation)
    }

    @Test func controlCharactersNeverReachTheGrid() {
        var buffer = Buffer(width: 8, height: 1)
        buffer.setString("a\u{1B}b\u{9B}c\u{7}", x: 0, y: 0)
        #expect(buffer.lines() == ["a\u{FFFD}b\u{FFFD}c\u{FFFD}  "])
    }

    @Test func combiningMarksStayWithTheirBaseCharacter() {
        var buffer = Buffer(width: 4, height: 1)
        buffer.setString("e\u{301}x", x: 0, y: 0)
        #expect(buffer[0, 0].text == "e\u{301}")
        #expect(buffer[1, 0].text == "x")
    }

    @Test func diffReportsOnlyTheChangedRuns() {
        var before = Buffer(width: 10, height: 3)
        before.setString("hello", x: 0, y: 0)
        before.setString("world", x: 0, y: 2)
        var after = before
        after.setString("J", x: 0, y: 0)
        after.setString("ld!", x: 3, y: 2)
        let runs = after.changes(from: before)
        #expect(runs == [
            CellRun(x: 0, y: 0, cells: [Cell("J")]),
            CellRun(x: 5, y: 2, cells: [Cell("!")]),
        ])
        #expect(after.changes(from: after).isEmpty)
    }

    @Test func diffCarriesBothHalvesOfAChangedWideCharacter() {
        var before = Buffer(width: 6, height: 1)
        before.setString("ab日", x: 0, y: 0)
        var after = before
        after.setString("本", x: 2, y: 0)
        let runs = after.changes(from: before)
        #expect(runs.count == 1)
        #expect(runs[0].x == 2)
        #expect(runs[0].cells.map(\.text) == ["本", ""])
    }

    @Test func styleChangeAloneIsAChange() {
        var before = Buffer(width: 4, height: 1)
        before.setString("ab", x: 0, y: 0)
        var after = before
        after.setStyle(Rect(x: 1, y: 0, width: 1, height: 1), Style(attributes: .reverse))
        #expect(after.changes(from: before).map(\.x) == [1])
    }

    @Test func differentSizeMeansEveryCellIsWritten() {
        let small = Buffer(width: 3, height: 2)
        let big = Buffer(width: 4, height: 2)
        let cells = big.changes(from: small).reduce(0) { $0 + $1.cells.count }
        #expect(cells == 8)
    }

    @Test func resizeKeepsWhatFits() {
        var buffer = Buffer(width: 6, height: 2)
        buffer.setString("ab日", x: 0, y: 0)
        buffer.resize(to: Size(width: 3, height: 1))
        #expect(buffer.lines() == ["ab "])
    }

    @Test func styleMapNamesEachStyleOnce() {
        var buffer = Buffer(width: 4, height: 1)
        buffer.setString("ab", x: 0, y: 0, style: Style(fg: .red, attributes: .bold))
        buffer.setString("c", x: 3, y: 0, style: Style(fg: .red, attributes: .bold))
        #expect(buffer.styleMap() == ["AA A", "--", "A: fg=red bold"])
    }
}
