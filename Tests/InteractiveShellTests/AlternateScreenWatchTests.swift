import Testing
@testable import InteractiveShell

@Suite struct AlternateScreenWatchTests {
    @Test func aSwitchToTheAlternateScreenIsSeenHoweverTheBytesAreCut() {
        for sequence in ["\u{1B}[?1049h", "\u{1B}[?47h", "\u{1B}[?1047h", "\u{1B}[?1;1049h"] {
            let bytes = Array(("top output " + sequence + "frame").utf8)
            for cut in 0...bytes.count {
                var watch = AlternateScreenWatch()
                watch.feed(Array(bytes[..<cut]))
                watch.feed(Array(bytes[cut...]))
                #expect(watch.used, "\(sequence.debugDescription) cut at \(cut)")
            }
        }
    }

    @Test func otherSequencesAndPlainOutputAreNot() {
        for text in ["plain\r\n", "\u{1B}[?1049l", "\u{1B}[?25h", "\u{1B}[1049h", "\u{1B}[?10490h", "\u{1B}[?1049",
                     "[?1049h", "\u{1B}\u{1B}[?12h"] {
            var watch = AlternateScreenWatch()
            watch.feed(Array(text.utf8))
            #expect(!watch.used, "\(text.debugDescription)")
        }
    }
}
