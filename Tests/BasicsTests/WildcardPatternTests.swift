import Basics
import Testing

@Suite struct WildcardPatternTests {
    @Test func starMatchesAnyRunAndQuestionMarkOneByte() {
        #expect(WildcardPattern.matches("*.example.org", "web1.example.org"))
        #expect(WildcardPattern.matches("web?", "web1"))
        #expect(!WildcardPattern.matches("web?", "web12"))
        #expect(WildcardPattern.matches("a*b*c", "aXbYbZc"))
        #expect(!WildcardPattern.matches("a*b*c", "aXbYbZ"))
        #expect(WildcardPattern.matches("*", ""))
        #expect(!WildcardPattern.matches("?", ""))
        #expect(WildcardPattern.matches("aes*-cbc", "aes128-cbc"))
    }

    /// Found by `make fuzz` (knownhosts): a `*` in the text was taken by the pattern's `*` as the same byte, so the
    /// walk lost its place to go back to and "****" did not match "*****".
    @Test func aStarInTheTextIsMatchedByTheWildcard() {
        #expect(WildcardPattern.matches("****", "*****"))
        #expect(WildcardPattern.matches("*x", "**x"))
        #expect(WildcardPattern.matches("a*", "a*b"))
    }

    /// As OpenSSH's match.c: bytes, so `?` is one byte of UTF-8, not one character.
    @Test func questionMarkIsOneByteAsInOpenSSH() {
        #expect(!WildcardPattern.matches("w?b", "wéb"))
        #expect(WildcardPattern.matches("w??b", "wéb"))
    }
}
