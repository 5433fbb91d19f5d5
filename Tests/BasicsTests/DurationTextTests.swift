import Basics
import Testing

@Suite struct DurationTextTests {
    @Test func numberIsTheShortestExactNumber() {
        #expect(DurationText.text(1, .number) == "1")
        #expect(DurationText.text(0.5, .number) == "0.5")
        #expect(DurationText.text(2.25, .number) == "2.25")
        #expect(DurationText.text(40, .number) == "40")
    }

    @Test func oneDecimalKeepsAtMostOneDecimal() {
        #expect(DurationText.text(60, .oneDecimal) == "60")
        #expect(DurationText.text(0.3, .oneDecimal) == "0.3")
        #expect(DurationText.text(0.25, .oneDecimal) == "0.2")
        #expect(DurationText.text(1.26, .oneDecimal) == "1.3")
    }

    @Test func elapsedGrowsCoarser() {
        #expect(DurationText.text(0.84, .elapsed) == "0.8 s")
        #expect(DurationText.text(9.94, .elapsed) == "9.9 s")
        #expect(DurationText.text(12.4, .elapsed) == "12 s")
        #expect(DurationText.text(119.4, .elapsed) == "119 s")
        #expect(DurationText.text(185, .elapsed) == "3 min 5 s")
    }

    @Test func wholeUnitsGoUpToHours() {
        #expect(DurationText.text(42.4, .wholeUnits) == "42 s")
        #expect(DurationText.text(185, .wholeUnits) == "3 min 5 s")
        #expect(DurationText.text(7260, .wholeUnits) == "2 h 1 min")
    }

    @Test func preciseIsFineBelowAMinute() {
        #expect(DurationText.text(0.05, .precise) == "0.05 s")
        #expect(DurationText.text(-1, .precise) == "0.00 s")
        #expect(DurationText.text(12.34, .precise) == "12.3 s")
        #expect(DurationText.text(65.9, .precise) == "1 min 5 s")
    }
}
