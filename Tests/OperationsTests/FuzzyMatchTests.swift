import Operations
import Testing

/// fzf-like matching for the filter bar: characters in order, any case; the score prefers consecutive characters,
/// starts of words and shorter texts.
@Suite struct FuzzyMatchTests {
    private func score(_ pattern: String, _ text: String) -> Int? {
        FuzzyMatch.score(FuzzyMatch.Text(pattern), in: FuzzyMatch.Text(text))
    }

    @Test func charactersMustAppearInOrderIgnoringCase() {
        #expect(score("wb1", "web1") != nil)
        #expect(score("WB1", "web1") != nil)
        #expect(score("1bw", "web1") == nil)
        #expect(score("web12", "web1") == nil)
        #expect(score("", "anything") == 0)
        #expect(score("ü", "café-ünï") != nil)
    }

    @Test func tighterAndEarlierMatchesRankFirst() {
        let texts = ["db-web-backup", "web1", "w-e-b", "webserver-long-name"]
        let ranked = texts.compactMap { text in score("web", text).map { (text, $0) } }
            .sorted { $0.1 > $1.1 }.map(\.0)
        // A prefix beats the same run later in the text; a short text beats a long one; split letters come last.
        #expect(ranked == ["web1", "webserver-long-name", "db-web-backup", "w-e-b"])
        // The start of a word counts: "nb" in "node-backup" beats "nb" inside "unbound".
        #expect(score("nb", "node-backup")! > score("nb", "unbound")!)
        // The shortest window is scored: "ab" in "a-x-ab" is consecutive.
        #expect(score("ab", "a-x-ab")! > score("ab", "a-x-b")!)
    }
}
