import Testing
import TUIKit

@Suite struct TextSanitizerTests {
    private func clean(_ text: String) -> String { TextSanitizer.sanitize(text) }

    private func clean(bytes: [UInt8]) -> String {
        var sanitizer = TextSanitizer()
        return sanitizer.feed(bytes) + sanitizer.finish()
    }

    /// Nothing that leaves the sanitizer may be a control character other than the line break.
    private func isInert(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { s in
            s == "\n" || !(s.value < 0x20 || (0x7F...0x9F).contains(s.value))
        }
    }

    @Test func cursorMovesAndScreenClearsAreShownNotObeyed() {
        let out = clean("a\u{1B}[2J\u{1B}[10;20Hb\u{1B}[1A\u{1B}[?1049h")
        #expect(out == "a␛[2J␛[10;20Hb␛[1A␛[?1049h")
        #expect(isInert(out))
    }

    @Test func titleAndClipboardSequencesAreShownNotObeyed() {
        #expect(clean("\u{1B}]0;pwned\u{07}x") == "␛]0;pwned␇x")
        #expect(clean("\u{1B}]2;pwned\u{1B}\\x") == "␛]2;pwned␛\\x")
        #expect(clean("\u{1B}]52;c;cm0gLXJmIH4=\u{07}") == "␛]52;c;cm0gLXJmIH4=␇")
    }

    @Test func deviceControlAndPrivateStringsAreShown() {
        #expect(clean("\u{1B}P1$r\u{1B}\\") == "␛P1$r␛\\")
        #expect(clean("\u{1B}_apc\u{1B}\\\u{1B}^pm\u{1B}\\\u{1B}Xsos\u{1B}\\")
            == "␛_apc␛\\␛^pm␛\\␛Xsos␛\\")
        #expect(clean("\u{1B}7\u{1B}c\u{1B}(0") == "␛7␛c␛(0")
    }

    @Test func c1ControlsAreShownInTheirSevenBitForm() {
        #expect(clean("a\u{9B}2Jb\u{9D}0;t\u{9C}") == "a␛[2Jb␛]0;t␛\\")
        // A raw 8-bit C1 byte is not valid UTF-8 at all.
        #expect(clean(bytes: [0x61, 0x9B, 0x32, 0x4A]) == "a\u{FFFD}2J")
    }

    @Test func controlCharactersBecomeControlPictures() {
        #expect(clean("a\u{0}b\u{7}c\u{8}d\u{7F}e\u{1A}") == "a␀b␇c␈d␡e␚")
    }

    @Test func bidirectionalOverridesCannotReverseText() {
        #expect(clean("abc\u{202E}fed") == "abc\u{FFFD}fed")
    }

    @Test func invalidUTF8BecomesReplacementCharacters() {
        #expect(clean(bytes: [0xC3, 0x28]) == "\u{FFFD}(")
        #expect(clean(bytes: [0xC0, 0x80]) == "\u{FFFD}\u{FFFD}")
        #expect(clean(bytes: [0xED, 0xA0, 0x80]) == "\u{FFFD}\u{FFFD}\u{FFFD}")
        #expect(clean(bytes: [0xF5, 0x41]) == "\u{FFFD}A")
        #expect(clean(bytes: [0xE6, 0x97]) == "\u{FFFD}")
        #expect(clean(bytes: [0xF0, 0x9F, 0x9A, 0x80]) == "🚀")
    }

    @Test func aCharacterSplitAcrossChunksIsDecodedWhole() {
        let bytes = Array("x日本🚀é".utf8)
        for cut in 0...bytes.count {
            var sanitizer = TextSanitizer()
            let out = sanitizer.feed(bytes[..<cut]) + sanitizer.feed(bytes[cut...]) + sanitizer.finish()
            #expect(out == "x日本🚀é", "cut at \(cut)")
        }
    }

    @Test func byteAtATimeGivesTheSameTextAsAllAtOnce() {
        let text = "ok\u{1B}]0;t\u{07}\t日\r\nnext\u{9B}31m\u{1B}[1mz\r"
        let whole = clean(text)
        var sanitizer = TextSanitizer()
        var pieces = ""
        for byte in text.utf8 { pieces += sanitizer.feed([byte]) }
        pieces += sanitizer.finish()
        #expect(pieces == whole)
        #expect(isInert(whole))
    }

    @Test func tabsExpandToEightColumnStopsByDisplayWidth() {
        #expect(clean("a\tb") == "a       b")
        #expect(clean("日本\tx") == "日本    x")
        #expect(clean("12345678\tx\n\ty") == "12345678        x\n        y")
    }

    @Test func carriageReturnsEndLinesWithoutHidingText() {
        #expect(clean("a\r\nb\nc") == "a\nb\nc")
        #expect(clean("10%\r50%\r100%\n") == "10%\n50%\n100%\n")
        #expect(clean("a\r\r\nb") == "a\nb")
        var sanitizer = TextSanitizer()
        #expect(sanitizer.feed("a\r") == "a")
        #expect(sanitizer.feed("\nb") == "\nb")
    }

    @Test func underOverwriteALoneCarriageReturnIsKeptAndCRLFStaysOneLineEnd() {
        func overwrite(_ chunks: [String]) -> String {
            var sanitizer = TextSanitizer(policy: .dropStyling, carriageReturn: .overwrite)
            return chunks.map { sanitizer.feed($0) }.joined() + sanitizer.finish()
        }
        #expect(overwrite(["10%\r50%\r100%\n"]) == "10%\r50%\r100%\n")
        #expect(overwrite(["a\r\nb\r\n"]) == "a\nb\n")
        #expect(overwrite(["a\r\r\nb"]) == "a\nb")
        #expect(overwrite(["a\r\r\rb"]) == "a\rb")
        // Cut anywhere, the same: a CR at the end of a chunk waits to see whether LF follows.
        #expect(overwrite(["a\r", "\nb\r", "c"]) == "a\nb\rc")
        // A CR at the very end ends the line.
        #expect(overwrite(["50%\r"]) == "50%\n")
        // Tab stops count from the line's start again after the CR.
        #expect(overwrite(["abcdef\r\tx\n"]) == "abcdef\r        x\n")
    }

    @Test func dropStylingRemovesOnlyColourSequences() {
        let styled = "\u{1B}[01;34mdir\u{1B}[0m \u{1B}[2J \u{1B}]0;t\u{07}"
        #expect(TextSanitizer.sanitize(styled, policy: .dropStyling) == "dir ␛[2J ␛]0;t␇")
        var sanitizer = TextSanitizer(policy: .dropStyling)
        var out = sanitizer.feed("a\u{1B}[3") + sanitizer.feed("1mred\u{1B}")
        out += sanitizer.feed("[0m") + sanitizer.finish()
        #expect(out == "ared")
        #expect(TextSanitizer.sanitize("x\u{1B}[31", policy: .dropStyling) == "x␛[31")
        #expect(TextSanitizer.sanitize("\u{1B}[1\u{1B}[0mok\u{1B}\u{1B}[m", policy: .dropStyling) == "␛[1ok␛")
    }

    @Test func randomBytesNeverProduceControlCharacters() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let bytes = (0..<200).map { _ in UInt8.random(in: 0...255, using: &generator) }
            var sanitizer = TextSanitizer(policy: Bool.random() ? .visible : .dropStyling)
            var out = ""
            var start = 0
            while start < bytes.count {
                let end = min(bytes.count, start + Int.random(in: 1...9))
                out += sanitizer.feed(bytes[start..<end])
                start = end
            }
            out += sanitizer.finish()
            #expect(isInert(out))
        }
    }

    @Test func aLineForOneFieldKeepsItsBreaksAndTabsAsPictures() {
        #expect(TextSanitizer.line("eth0") == "eth0")
        #expect(TextSanitizer.line("a\u{1B}[2Jb\tc\r\nd\u{9B}e\u{202E}f") == "a␛[2Jb␉c␍␊d␛[e\u{FFFD}f")
        #expect(isInert(TextSanitizer.line("\u{0}\u{7F}\u{85}")) && !TextSanitizer.line("x\ny").contains("\n"))
    }
}
