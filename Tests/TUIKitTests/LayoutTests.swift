import Testing
import TUIKit

@Suite struct LayoutTests {
    @Test func fixedPercentAndFillShareTheSpaceWithoutGaps() {
        let parts = Layout.split(Rect(x: 0, y: 0, width: 80, height: 24), .vertical,
                                 [.fixed(1), .percent(25), .fill(1), .fill(2), .fixed(1)])
        #expect(parts.map(\.height) == [1, 6, 5, 11, 1])
        #expect(parts.map(\.y) == [0, 1, 7, 12, 23])
    }

    @Test func tooLittleSpaceShrinksTheLastPartsFirst() {
        let parts = Layout.split(Rect(x: 5, y: 0, width: 10, height: 1), .horizontal, [.fixed(6), .fixed(6), .fill(1)])
        #expect(parts.map(\.width) == [6, 4, 0])
        #expect(parts.map(\.x) == [5, 11, 15])
    }

    @Test func rectangleHelpersStayInside() {
        let r = Rect(x: 2, y: 2, width: 10, height: 4)
        #expect(r.inset(by: 1) == Rect(x: 3, y: 3, width: 8, height: 2))
        #expect(r.intersection(Rect(x: 0, y: 0, width: 5, height: 5)) == Rect(x: 2, y: 2, width: 3, height: 3))
        #expect(r.centered(width: 4, height: 2) == Rect(x: 5, y: 3, width: 4, height: 2))
        #expect(Rect(x: 0, y: 0, width: 1, height: 1).inset(by: 2).isEmpty)
    }
}
