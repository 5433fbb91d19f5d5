import Testing
import TestSupport
import TUIKit

/// A composed screen of the kind the app draws (header, table, output with a search, field, key bar),
/// compared with reviewed golden files at the sizes the app must handle.
@Suite struct GoldenScreenTests {
    private enum Action: Sendable { case connect, find, quit, help }

    private static let keys = KeyBindingTable<Action>([
        KeyBinding([.enter], .connect, label: "Connect", description: "Connect to the selected server"),
        KeyBinding([.character("/")], .find, label: "Filter", description: "Filter the servers"),
        KeyBinding([.character("?")], .help, label: "Help", description: "Show the keys"),
        KeyBinding([.character("q")], .quit, label: "Quit", description: "Leave eSSH"),
    ])

    private static func sampleScreen(_ size: Size) -> Buffer {
        var buffer = Buffer(size: size)
        if SizeGuard().renderIfTooSmall(into: &buffer) { return buffer }
        let rows = Layout.split(buffer.area, .vertical, [.fixed(1), .percent(40), .fill(1), .fixed(1), .fixed(1)])
        StatusBar(left: [" eSSH", Span(" · 3 servers", style: Style(attributes: .dim))],
                  right: [Span(Spinner.unicode.frame(2) + " checking ")]).render(in: rows[0], buffer: &buffer)
        let green = Style(fg: .green), red = Style(fg: .red)
        let table = TableView(
            columns: [.init("", width: .fixed(1)), .init("Name", width: .percent(25)),
                      .init("Address", width: .fill(1)), .init("OS", width: .fixed(7)),
                      .init("Latency", width: .fixed(8), alignment: .right)],
            rows: [
                [Span("●", style: green), "web-01", "root@10.0.0.1:22", "linux", "3 ms"],
                [Span("●", style: red), "日本語サーバー", "admin@192.168.100.200:2222", "linux", "—"],
                [Span("●", style: green), "café", "deploy@café.example.org:22", "freebsd", "120 ms"],
            ])
        var tableState = ListState(selected: 1)
        let tableArea = Box(title: "Servers").render(in: rows[1], buffer: &buffer)
        table.render(in: tableArea, buffer: &buffer, state: &tableState)
        var scrollback = ScrollbackBuffer(maxLines: 100)
        var sanitizer = TextSanitizer()
        scrollback.append(sanitizer.feed(Array("$ ip -br addr\nlo\tUNKNOWN\t127.0.0.1/8\n".utf8)))
        scrollback.append(sanitizer.feed(Array("eth0\tUP\t10.0.0.1/24 \u{1B}]0;pwned\u{07}\n".utf8)))
        scrollback.append(sanitizer.feed([0x62, 0x61, 0x64, 0x20, 0xFF, 0x0A]) + sanitizer.finish())
        var viewState = TextViewState()
        let outputArea = Box(title: "Output").render(in: rows[2], buffer: &buffer)
        TextView(highlight: "UP", currentMatch: SearchMatch(line: 2, byteRange: 5..<7))
            .render(scrollback, in: outputArea, buffer: &buffer, state: &viewState)
        let field = TextField("uname -a")
        let x = buffer.setString("> ", x: 0, y: rows[3].y, style: Style(attributes: .bold))
        field.render(in: Rect(x: x, y: rows[3].y, width: size.width - x, height: 1), buffer: &buffer)
        KeyBar(table: keys).render(in: rows[4], buffer: &buffer)
        return buffer
    }

    private let golden = Golden.directory(besides: #filePath)

    @Test func sampleScreenAt80x24() throws {
        let screen = Self.sampleScreen(Size(width: 80, height: 24))
        try Golden.check(screen.lines(), named: "sample-80x24", in: golden)
        try Golden.check(screen.styleMap(), named: "sample-80x24.style", in: golden)
    }

    @Test func sampleScreenAt200x50() throws {
        try Golden.check(Self.sampleScreen(Size(width: 200, height: 50)).lines(), named: "sample-200x50", in: golden)
    }

    @Test func sampleScreenAtTheSmallestSize40x10() throws {
        try Golden.check(Self.sampleScreen(Size(width: 40, height: 10)).lines(), named: "sample-40x10", in: golden)
    }

    @Test func belowTheSmallestSizeOnlyTheMessageIsShown() throws {
        try Golden.check(Self.sampleScreen(Size(width: 39, height: 9)).lines(), named: "too-small-39x9", in: golden)
    }
}
