import Testing
@testable import InteractiveShell

@Suite struct EscapeScannerTests {
    func feed(_ text: String, into scanner: inout EscapeScanner) -> [EscapeScanner.Action] {
        scanner.feed(Array(text.utf8))
    }

    func send(_ text: String) -> EscapeScanner.Action { .send(Array(text.utf8)) }

    @Test func tildeDotAtTheVeryStartDisconnects() {
        var s = EscapeScanner()
        #expect(feed("~.", into: &s) == [.disconnect])
    }

    @Test func tildeDotAfterCarriageReturnOrNewlineDisconnectsAndDropsTheRest() {
        var s = EscapeScanner()
        #expect(feed("ls\r~.rm -rf\r", into: &s) == [send("ls\r"), .disconnect])
        var t = EscapeScanner()
        #expect(feed("ls\n~.", into: &t) == [send("ls\n"), .disconnect])
    }

    @Test func tildeInsideALineIsPlainText() {
        var s = EscapeScanner()
        #expect(feed("cd ~.", into: &s) == [send("cd ~.")])
        #expect(feed("/x", into: &s) == [send("/x")])
    }

    @Test func doubleTildeSendsOneTildeAndEndsTheLineStart() {
        var s = EscapeScanner()
        #expect(feed("~~.", into: &s) == [send("~.")])
    }

    @Test func tildeQuestionMarkAsksForHelpAndStaysAtTheLineStart() {
        var s = EscapeScanner()
        #expect(feed("~?~.", into: &s) == [.help, .disconnect])
    }

    @Test func tildeBeforeAnyOtherByteSendsBoth() {
        var s = EscapeScanner()
        #expect(feed("~x", into: &s) == [send("~x")])
        var t = EscapeScanner()
        // `~` then Enter: both go through and the next line starts fresh.
        #expect(feed("~\r~.", into: &t) == [send("~\r"), .disconnect])
    }

    @Test func aHeldTildeWaitsForTheNextReadAcrossChunks() {
        var s = EscapeScanner()
        #expect(feed("echo\r~", into: &s) == [send("echo\r")])
        #expect(s.isHoldingEscape)
        #expect(feed(".", into: &s) == [.disconnect])
        var t = EscapeScanner()
        #expect(feed("~", into: &t) == [])
        #expect(feed("a", into: &t) == [send("~a")])
        #expect(!t.isHoldingEscape)
    }

    @Test func anotherEscapeCharacterCanBeChosen() {
        var s = EscapeScanner(escapeCharacter: UInt8(ascii: "%"))
        #expect(feed("~.", into: &s) == [send("~.")])
        var t = EscapeScanner(escapeCharacter: UInt8(ascii: "%"))
        #expect(feed("\r%.", into: &t) == [send("\r"), .disconnect])
    }

    @Test func controlBytesPassThroughUntouched() {
        var s = EscapeScanner()
        let bytes: [UInt8] = [3, 4, 26, 0x1B, 0x5B, 0x41, 0xC3, 0xA9]
        #expect(s.feed(bytes) == [.send(bytes)])
    }

    @Test func theHelpTextListsTheEscapesWithTerminalLineEnds() {
        let text = EscapeScanner.helpText()
        #expect(text.contains("~."))
        #expect(text.contains("~?"))
        #expect(text.contains("~~"))
        #expect(text.hasSuffix("\r\n"))
        #expect(!text.replacingOccurrences(of: "\r\n", with: "").contains("\n"))
    }
}
