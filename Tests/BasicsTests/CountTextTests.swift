import Basics
import Testing

@Suite struct CountTextTests {
    @Test func oneIsSingularAndEveryOtherCountPlural() {
        #expect(CountText.text(1, "key") == "1 key")
        #expect(CountText.text(2, "key") == "2 keys")
        #expect(CountText.text(0, "server") == "0 servers")
        #expect(CountText.text(1, "other line") == "1 other line")
        #expect(CountText.text(3, "match", plural: "matches") == "3 matches")
        #expect(CountText.text(1, "match", plural: "matches") == "1 match")
    }
}
