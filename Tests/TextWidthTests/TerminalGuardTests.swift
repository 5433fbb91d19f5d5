import Testing
import TestSupport
import TextWidth

@Suite struct TerminalGuardTests {
    private func shown(_ text: String) -> String { shown(bytes: Array(text.utf8)) }

    private func shown(bytes: [UInt8]) -> String { String(decoding: TerminalGuard.filtered(bytes), as: UTF8.self) }

    /// Fed in two chunks cut at `cut`, then finished.
    private func shown(bytes: [UInt8], cutAt cut: Int) -> [UInt8] {
        var guardian = TerminalGuard()
        return guardian.filter(bytes[..<cut]) + guardian.filter(bytes[cut...]) + guardian.finish()
    }

    // MARK: What passes

    @Test func plainTextAndUTF8PassByteForByte() {
        let text = "plain ASCII ~!@#$%^&*()_+{}|:\"<>?`-=[]\\;',./\r\nline\ttab\u{8}back\n"
            + "°C £5 a\u{A0}b ©µ½ é ü ñ Ω Ж 日本語 한국어 العربية 🚀👍🏽 e\u{301}\n"
        let bytes = Array(text.utf8)
        #expect(TerminalGuard.filtered(bytes) == bytes)
    }

    @Test func invalidUTF8BytesPassAsTheyAre() {
        for bytes: [UInt8] in [[0xFF, 0x41], [0x9B, 0x32, 0x4A], [0xC0, 0x80], [0xE2, 0x28], [0xC3], [0xF0, 0x9F]] {
            #expect(TerminalGuard.filtered(bytes) == bytes, "\(bytes)")
        }
        // 0xC2 followed by something other than a C1 control passes too.
        #expect(TerminalGuard.filtered([0xC2, 0x41, 0xC2]) == [0xC2, 0x41, 0xC2])
    }

    @Test func coloursPassByteForByte() {
        for sgr in ["\u{1B}[31mred\u{1B}[0m", "\u{1B}[m", "\u{1B}[1;4;38;5;208mx\u{1B}[22;24;39m",
                    "\u{1B}[38;2;255;128;0;48;2;0;0;0mtrue colour\u{1B}[0m", "\u{1B}[38:2::255:128:0mcolon\u{1B}[m",
                    "\u{1B}[01;34mdir\u{1B}[0m\n"] {
            #expect(TerminalGuard.filtered(Array(sgr.utf8)) == Array(sgr.utf8), "\(sgr.debugDescription)")
        }
    }

    @Test func theCursorMovesAndLineEraseOfProgressBarsPass() {
        let bar = "\r 10% [==   ]\u{1B}[K\r 50% [=====]\u{1B}[0K\u{1B}[2K\u{1B}[1A\u{1B}[3B\u{1B}[10C\u{1B}[D"
            + "\u{1B}[2E\u{1B}[F\u{1B}[1G\u{1B}[40G done\n"
        #expect(TerminalGuard.filtered(Array(bar.utf8)) == Array(bar.utf8))
    }

    @Test func theAllowListIsColoursRelativeMovesAndLineErase() {
        let allowed = (0x40...0x7E).map(UInt8.init).filter(TerminalGuard.isAllowedFinal)
        #expect(String(decoding: allowed, as: UTF8.self) == "ABCDEFGKm")
        for final in (0x40...0x7E).map(UInt8.init) {
            let sequence: [UInt8] = [0x1B, 0x5B, 0x31, 0x3B, 0x32] + [final]
            let out = TerminalGuard.filtered(sequence)
            #expect((out == sequence) == TerminalGuard.isAllowedFinal(final), "final \(final)")
        }
    }

    // MARK: What is shown instead of obeyed

    @Test func titlesClipboardAndOtherOSCStringsAreShown() {
        #expect(shown("a\u{1B}]0;pwned\u{7}b") == "a␛]0;pwned␇b")
        #expect(shown("\u{1B}]2;pwned\u{1B}\\x") == "␛]2;pwned␛\\x")
        #expect(shown("\u{1B}]52;c;SGVsbG8=\u{7}") == "␛]52;c;SGVsbG8=␇")
        #expect(shown("\u{1B}]8;;http://evil/\u{1B}\\click\u{1B}]8;;\u{1B}\\") == "␛]8;;http://evil/␛\\click␛]8;;␛\\")
        #expect(shown("\u{1B}]4;1;rgb:ff/00/00\u{7}\u{1B}]10;?\u{7}") == "␛]4;1;rgb:ff/00/00␇␛]10;?␇")
    }

    @Test func deviceControlAndPrivateStringsAreShown() {
        #expect(shown("\u{1B}P$qm\u{1B}\\") == "␛P$qm␛\\")
        #expect(shown("\u{1B}P+q544e\u{1B}\\") == "␛P+q544e␛\\")
        #expect(shown("\u{1B}_apc\u{1B}\\\u{1B}^pm\u{1B}\\\u{1B}Xsos\u{1B}\\") == "␛_apc␛\\␛^pm␛\\␛Xsos␛\\")
    }

    @Test func deviceQueriesAreShownSoTheTerminalNeverAnswers() {
        for query in ["[6n", "[5n", "[?6n", "[c", "[0c", "[>c", "[>0c", "[=c", "[?2004$p", "[2$p", "[14t", "[18t",
                      "[21t", "[8;100;200t", "[x", "Z", "[>q", "[?u", "[?4m"] {
            #expect(shown("\u{1B}" + query) == "␛" + query, "\(query)")
        }
    }

    @Test func modeSwitchesAreShown() {
        for mode in ["[?1049h", "[?1049l", "[?47h", "[?1047h", "[?1000h", "[?1006h", "[?1003h", "[?2004h", "[?25l",
                     "[?7l", "[?3h", "[4h", "[20h", "[12l", "[>4;1m", "[>1u", "[2 q", "=", ">"] {
            #expect(shown("\u{1B}" + mode) == "␛" + mode, "\(mode)")
        }
    }

    @Test func charsetSwitchesResetAndOtherSingleEscapesAreShown() {
        #expect(shown("\u{1B}(0lqk\u{1B}(B") == "␛(0lqk␛(B")
        #expect(shown("\u{1B})0\u{E}x\u{F}") == "␛)0␎x␏")
        #expect(shown("\u{1B}c\u{1B}7\u{1B}8\u{1B}#8\u{1B}D\u{1B}E\u{1B}M\u{1B}N\u{1B}O\u{1B}H")
            == "␛c␛7␛8␛#8␛D␛E␛M␛N␛O␛H")
        #expect(shown("\u{1B}\u{1B}[31m") == "␛\u{1B}[31m", "a second ESC starts a sequence of its own")
    }

    @Test func absolutePositioningScreenEraseAndScrollingAreShown() {
        for sequence in ["[H", "[10;20H", "[5;5f", "[2J", "[3J", "[J", "[1;24r", "[S", "[2T", "[s", "[u", "[5@",
                         "[2L", "[3M", "[4P", "[5X", "[10d", "[!p", "[0$m"] {
            #expect(shown("\u{1B}" + sequence) == "␛" + sequence, "\(sequence)")
        }
    }

    @Test func c1ControlsEncodedInUTF8AreShownInTheirSevenBitForm() {
        #expect(shown("a\u{9B}6nb") == "a␛[6nb")
        #expect(shown("\u{9D}0;pwned\u{9C}") == "␛]0;pwned␛\\")
        #expect(shown("\u{90}q\u{9C}\u{85}\u{84}\u{8D}\u{80}\u{9F}") == "␛Pq␛\\␛E␛D␛M␛@␛_")
        #expect(shown("\u{9B}31mnot coloured") == "␛[31mnot coloured")
    }

    @Test func otherControlCharactersBecomeControlPictures() {
        #expect(shown("a\u{0}b\u{7}c\u{5}d\u{B}e\u{C}f\u{7F}g\u{18}h\u{1A}i\u{1}") == "a␀b␇c␅d␋e␌f␡g␘h␚i␁")
    }

    @Test func aControlInsideASequenceEndsItVisibly() {
        // A terminal obeys a control inside a CSI sequence and carries on with the sequence; here the sequence is
        // shown, so the `m` after the line break is text.
        #expect(shown("\u{1B}[3\n1m") == "␛[3\n1m")
        #expect(shown("\u{1B}[3\u{7}1m") == "␛[3␇1m")
        #expect(shown("\u{1B}[31\u{1B}[32m") == "␛[31\u{1B}[32m")
        #expect(shown("\u{1B}[31é") == "␛[31é")
        #expect(shown("\u{1B}[31\u{9B}6n") == "␛[31␛[6n")
    }

    @Test func neutralisedSequencesReadAsTheInterfaceShowsThem() {
        // The same words as TextSanitizer's, so a hostile sequence looks alike in `essh exec` and in the interface.
        for hostile in ["\u{1B}]0;pwned\u{7}", "\u{1B}]52;c;SGVsbG8=\u{1B}\\", "\u{1B}P1$r\u{1B}\\", "\u{1B}[?1049h",
                        "\u{1B}[6n", "\u{1B}(0", "\u{1B}c", "\u{9B}2J", "a\u{0}\u{7F}\u{E}"] {
            #expect(shown(hostile) == TextSanitizer.sanitize(hostile), "\(hostile.debugDescription)")
        }
    }

    // MARK: Streaming and bounds

    @Test func aSequenceSplitAcrossChunksAtAnyByteIsTheSame() {
        let sample = "x\u{1B}]0;pwned\u{7}\u{1B}]52;c;SGVsbG8=\u{1B}\\\u{1B}[?1049h\u{1B}[6n\u{1B}[31mred\u{1B}[0m"
            + "\u{1B}[38;2;1;2;3m\u{1B}[2K\u{1B}[1A\r\n\u{1B}P$q\u{1B}\\\u{1B}(0\u{E}\u{F}\u{1B}c"
            + "\u{9B}6n\u{9D}0;t\u{9C}"
            + "°£\u{A0}日本🚀\u{1B}[3\n1m\u{1B}\u{1B}[m\u{7}\u{0}\u{7F}\t\u{8}end"
        let bytes = Array(sample.utf8)
        let whole = TerminalGuard.filtered(bytes)
        let start = "x␛]0;pwned␇␛]52;c;SGVsbG8=␛\\␛[?1049h␛[6n\u{1B}[31mred"
        #expect(String(decoding: whole, as: UTF8.self).hasPrefix(start))
        for cut in 0...bytes.count {
            #expect(shown(bytes: bytes, cutAt: cut) == whole, "cut at \(cut)")
        }
        var guardian = TerminalGuard()
        var oneByOne: [UInt8] = []
        for byte in bytes { oneByOne += guardian.filter([byte]) }
        #expect(oneByOne + guardian.finish() == whole)
    }

    @Test func aLongControlSequenceIsShownOnceItPassesTheCap() {
        let digits = String(repeating: "1;", count: 50)
        #expect(shown("\u{1B}[" + digits + "m") == "␛[" + digits + "m")
        // Fed without an end, at most the cap is held back.
        var guardian = TerminalGuard()
        let endless = Array(("\u{1B}[" + String(repeating: ";", count: 10_000)).utf8)
        let out = guardian.filter(endless)
        #expect(endless.count - (out.count - 2) <= TerminalGuard.maxSequenceLength)
        #expect(String(decoding: out, as: UTF8.self).hasPrefix("␛[;;;"))
        // The longest sequence that fits still passes when it is a colour.
        let longest = "\u{1B}[" + String(repeating: "0", count: TerminalGuard.maxSequenceLength - 2) + "m"
        #expect(TerminalGuard.filtered(Array(longest.utf8)) == Array(longest.utf8))
    }

    @Test func anUnterminatedStringIsShownAtOnceAndNeverHeld() {
        var guardian = TerminalGuard()
        let content = String(repeating: "A", count: 1 << 20)
        for introducer in ["]0;", "P", "_", "^", "X"] {
            let out = guardian.filter(Array(("\u{1B}" + introducer + content).utf8))
            #expect(String(decoding: out, as: UTF8.self) == "␛" + introducer + content)
        }
        #expect(guardian.finish().isEmpty)
    }

    @Test func finishingShowsWhatWasHeld() {
        for (held, shown) in [("a\u{1B}", "a␛"), ("\u{1B}[31", "␛[31"), ("\u{1B}[", "␛[")] {
            var guardian = TerminalGuard()
            let out = guardian.filter(Array(held.utf8)) + guardian.finish()
            #expect(String(decoding: out, as: UTF8.self) == shown, "\(held.debugDescription)")
        }
        var lead = TerminalGuard()
        #expect(lead.filter([0x41, 0xC2]) == [0x41])
        #expect(lead.finish() == [0xC2])
    }

    @Test func nothingThatCouldActOnTheTerminalComesOutOfRandomBytes() {
        // Bytes weighted toward the ones that matter, in random chunk sizes.
        var random = SeededGenerator(seed: 0x5EED)
        let alphabet: [UInt8] = [0x1B, 0x1B, 0x5B, 0x5D, 0x50, 0x3F, 0x3B, 0x31, 0x36, 0x6D, 0x6E, 0x68, 0x41, 0x4B,
                                 0x07, 0x0A, 0x0D, 0x00, 0x0E, 0x7F, 0xC2, 0x9B, 0x9D, 0x80, 0xE2, 0x90, 0x20, 0x24]
        for _ in 0..<200 {
            let bytes = (0..<400).map { _ in random.next() % 5 == 0 ? UInt8(truncatingIfNeeded: random.next())
                : alphabet[Int(random.next() % UInt64(alphabet.count))] }
            var guardian = TerminalGuard()
            var out: [UInt8] = []
            var index = 0
            while index < bytes.count {
                let end = min(bytes.count, index + 1 + Int(random.next() % 17))
                out += guardian.filter(bytes[index..<end])
                index = end
            }
            out += guardian.finish()
            #expect(Self.isInert(out), "\(bytes)")
        }
        #expect(!Self.isInert(Array("\u{1B}]0;x\u{7}".utf8)) && !Self.isInert(Array("\u{1B}[6n".utf8)))
        #expect(!Self.isInert(Array("\u{9B}6n".utf8)) && !Self.isInert([0x07]))
    }

    /// Every ESC starts an allowed CSI sequence; no C1 control in UTF-8; no control but CR, LF, TAB and BS.
    private static func isInert(_ bytes: [UInt8]) -> Bool {
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0xC2, index + 1 < bytes.count, (0x80...0x9F).contains(bytes[index + 1]) { return false }
            if byte == 0x1B {
                guard index + 1 < bytes.count, bytes[index + 1] == 0x5B else { return false }
                var end = index + 2
                while end < bytes.count, (0x30...0x3B).contains(bytes[end]) { end += 1 }
                guard end < bytes.count, TerminalGuard.isAllowedFinal(bytes[end]) else { return false }
                index = end + 1
                continue
            }
            if byte < 0x20 && ![0x08, 0x09, 0x0A, 0x0D].contains(byte) || byte == 0x7F { return false }
            index += 1
        }
        return true
    }
}
