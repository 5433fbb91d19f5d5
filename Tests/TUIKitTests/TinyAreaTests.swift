import Testing
import TUIKit

/// Every widget drawn into areas from nothing up to a few cells, including areas partly outside the buffer:
/// nothing may crash, hang or write outside the area.
@Suite struct TinyAreaTests {
    private enum Action: Sendable { case go }

    @Test func widgetsSurviveAreasFromNothingToAFewCells() {
        let table = KeyBindingTable<Action>([KeyBinding([.function(2)], .go, label: "Go", description: "Go now")])
        var scrollback = ScrollbackBuffer(maxLines: 10)
        scrollback.appendLine("日本語 wide text")
        for width in 0...6 {
            for height in 0...3 {
                for origin in [Point(x: 0, y: 0), Point(x: 5, y: 3), Point(x: -2, y: -1)] {
                    let area = Rect(x: origin.x, y: origin.y, width: width, height: height)
                    var buffer = Buffer(width: 8, height: 5)
                    buffer.fill(buffer.area, with: Cell("."))
                    var list = ListState()
                    ListView(items: [["日本語"], ["b"]]).render(in: area, buffer: &buffer, state: &list)
                    TableView(columns: [.init("名前", width: .fill(1)), .init("x", width: .fixed(3))],
                              rows: [["日本", "1"]]).render(in: area, buffer: &buffer, state: &list)
                    var view = TextViewState()
                    TextView(highlight: "本").render(scrollback, in: area, buffer: &buffer, state: &view)
                    TextField("日本語").render(in: area, buffer: &buffer)
                    StatusBar(left: ["日本"], right: ["x"]).render(in: area, buffer: &buffer)
                    KeyBar(table: table).render(in: area, buffer: &buffer)
                    Box(title: "題名").render(in: area, buffer: &buffer)
                    Dialog(title: "題", message: "日本語", buttons: ["はい"]).render(in: area, buffer: &buffer)
                    HelpView(table: table).render(in: area, buffer: &buffer)
                    Spinner.unicode.render(tick: 3, label: "日本", in: area, buffer: &buffer)
                    let visible = area.intersection(buffer.area)
                    for y in 0..<buffer.height {
                        for x in 0..<buffer.width where !visible.contains(x: x, y: y) {
                            #expect(buffer[x, y].text == ".", "wrote outside \(area) at \(x),\(y)")
                        }
                    }
                }
            }
        }
    }
}
