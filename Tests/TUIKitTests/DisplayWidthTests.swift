import Testing
import TUIKit

@Suite struct DisplayWidthTests {
    @Test func widthsFollowEastAsianWidthAndCombiningMarks() {
        #expect(DisplayWidth.of("abc") == 3)
        #expect(DisplayWidth.of("日本語") == 6)
        #expect(DisplayWidth.of("한국") == 4)
        #expect(DisplayWidth.of("ＡＢ") == 4)
        #expect(DisplayWidth.of("e\u{301}") == 1)
        #expect(DisplayWidth.of("a\u{200B}b") == 2)
        #expect(DisplayWidth.of("🚀") == 2)
        #expect(DisplayWidth.of("é") == 1)
        #expect(DisplayWidth.of("␛") == 1)
    }

    @Test func truncationAddsAnEllipsisAndNeverSplitsAWideCharacter() {
        #expect(DisplayWidth.truncate("hello world", to: 8) == "hello w…")
        #expect(DisplayWidth.truncate("日本語テキスト", to: 6) == "日本…")
        #expect(DisplayWidth.truncate("日本語", to: 6) == "日本語")
        #expect(DisplayWidth.truncate("abc", to: 0) == "")
    }

    @Test func fitPadsToTheColumnWidthByDisplayWidth() {
        #expect(DisplayWidth.fit("日本", to: 6) == "日本  ")
        #expect(DisplayWidth.fit("42", to: 5, alignment: .right) == "   42")
        #expect(DisplayWidth.fit("ab", to: 6, alignment: .center) == "  ab  ")
    }

    @Test func wrapBreaksAtSpacesAndCutsLongWords() {
        #expect(DisplayWidth.wrap("the quick brown fox", to: 10) == ["the quick", "brown fox"])
        #expect(DisplayWidth.wrap("abcdefghij", to: 4) == ["abcd", "efgh", "ij"])
        #expect(DisplayWidth.wrap("日本語テキスト", to: 5) == ["日本", "語テ", "キス", "ト"])
        #expect(DisplayWidth.wrap("日本", to: 1) == ["日", "本"])
    }
}
