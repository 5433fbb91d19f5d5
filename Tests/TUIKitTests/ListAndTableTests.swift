import Testing
import TUIKit

@Suite struct ListAndTableTests {
    @Test func selectionMovesAndStopsAtTheEnds() {
        var state = ListState()
        state.selectPrevious(count: 3)
        #expect(state.selected == 0)
        state.selectNext(count: 3)
        state.selectNext(count: 3)
        state.selectNext(count: 3)
        #expect(state.selected == 2)
        state.pageUp(count: 3, pageSize: 10)
        #expect(state.selected == 0)
        state.selectLast(count: 3)
        #expect(state.selected == 2)
        state.clamp(count: 1)
        #expect(state.selected == 0)
        state.clamp(count: 0)
        #expect(state.selected == nil)
    }

    @Test func listScrollsToKeepTheSelectionVisible() {
        let items = (0..<10).map { [Span("item \($0)")] }
        var state = ListState(selected: 7)
        var buffer = Buffer(width: 10, height: 3)
        ListView(items: items).render(in: buffer.area, buffer: &buffer, state: &state)
        #expect(state.offset == 5)
        #expect(buffer.lines() == ["  item 5  ", "  item 6  ", "> item 7  "])
        #expect(buffer[0, 2].style.attributes.contains(.reverse))
        #expect(buffer[9, 2].style.attributes.contains(.reverse))
        #expect(!buffer[0, 1].style.attributes.contains(.reverse))
        state.selectFirst(count: items.count)
        ListView(items: items).render(in: buffer.area, buffer: &buffer, state: &state)
        #expect(state.offset == 0)
    }

    @Test func tableAlignsColumnsByDisplayWidthAndCutsWithAnEllipsis() {
        let table = TableView(
            columns: [.init("Name", width: .fixed(8)), .init("Host", width: .fill(1)),
                      .init("ms", width: .fixed(4), alignment: .right)],
            rows: [["日本語サーバー", "10.0.0.1", "12"], ["web", "very-long-hostname.example", "3"]])
        var state = ListState(selected: 1)
        var buffer = Buffer(width: 24, height: 3)
        table.render(in: buffer.area, buffer: &buffer, state: &state)
        #expect(buffer.lines() == [
            "Name     Host         ms",
            "日本語…  10.0.0.1     12",
            "web      very-long…    3",
        ])
        #expect(buffer[0, 0].style.attributes.contains(.bold))
        #expect(buffer[0, 2].style.attributes.contains(.reverse))
        #expect(table.columnRects(in: buffer.area).map(\.width) == [8, 10, 4])
    }
}
