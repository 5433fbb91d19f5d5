import Testing
import TUIKit

@Suite struct TextFieldTests {
    private func field(_ text: String, cursorFromEnd: Int = 0) -> TextField {
        var field = TextField(text)
        for _ in 0..<cursorFromEnd { _ = field.handle(.left) }
        return field
    }

    @Test func typingInsertsAtTheCursor() {
        var f = field("held", cursorFromEnd: 1)
        let handledL = f.handle(.character("l"))
        let handledO = f.handle(.character("o"))
        #expect(handledL && handledO)
        #expect(f.text == "hellod")
        #expect(f.cursor == 5)
    }

    @Test func backspaceAndDeleteRemoveAroundTheCursor() {
        var f = field("abcd", cursorFromEnd: 2)
        _ = f.handle(.backspace)
        #expect(f.text == "acd")
        _ = f.handle(.delete)
        #expect(f.text == "ad")
        _ = f.handle(.home)
        _ = f.handle(.backspace)
        #expect(f.text == "ad")
        _ = f.handle(.end)
        _ = f.handle(.delete)
        #expect(f.text == "ad")
        #expect(f.cursor == 2)
    }

    @Test func ctrlUAndCtrlKCutToTheStartAndTheEnd() {
        var f = field("hello world", cursorFromEnd: 5)
        _ = f.handle(.ctrl("k"))
        #expect(f.text == "hello ")
        var g = field("hello world", cursorFromEnd: 5)
        _ = g.handle(.ctrl("u"))
        #expect(g.text == "world")
        #expect(g.cursor == 0)
    }

    @Test func ctrlWDeletesTheWordBeforeTheCursor() {
        var f = field("ls -la /tmp  ")
        _ = f.handle(.ctrl("w"))
        #expect(f.text == "ls -la ")
        _ = f.handle(.ctrl("w"))
        _ = f.handle(.ctrl("w"))
        #expect(f.text == "")
        _ = f.handle(.ctrl("w"))
        #expect(f.text == "")
    }

    @Test func cursorColumnCountsDisplayWidth() {
        let f = field("日本x", cursorFromEnd: 1)
        #expect(f.cursor == 2)
        #expect(f.cursorColumn == 4)
    }

    @Test func maskedFieldShowsOnlyMaskCharacters() {
        var f = TextField(masked: true)
        for c in "pässwörd" { _ = f.handle(.character(c)) }
        #expect(f.text == "pässwörd")
        #expect(f.displayText == "********")
        var buffer = Buffer(width: 12, height: 1)
        let cursor = f.render(in: buffer.area, buffer: &buffer)
        #expect(buffer.lines() == ["********    "])
        #expect(cursor == Point(x: 8, y: 0))
    }

    @Test func controlCharactersAndUnknownKeysAreNotTyped() {
        var f = TextField()
        f.insert("\u{1B}")
        #expect(f.text == "")
        let handledF2 = f.handle(.function(2))
        let handledEnter = f.handle(.enter)
        #expect(!handledF2 && !handledEnter)
    }

    @Test func longTextScrollsSoTheCursorStaysVisible() {
        var f = TextField("0123456789abcdef")
        var buffer = Buffer(width: 8, height: 1)
        let cursor = f.render(in: buffer.area, buffer: &buffer)
        #expect(buffer.lines() == ["9abcdef "])
        #expect(cursor == Point(x: 7, y: 0))
        _ = f.handle(.home)
        buffer = Buffer(width: 8, height: 1)
        #expect(f.render(in: buffer.area, buffer: &buffer) == Point(x: 0, y: 0))
        #expect(buffer.lines() == ["01234567"])
    }
}
