import TUIKit

/// The demo's whole state, changed only by `handle` and `receive`, drawn by `render` (no terminal in here).
struct DemoModel {
    var servers: [[Span]] = [
        [Span("●", style: Style(fg: .green)), " web-01   10.0.0.1"],
        [Span("●", style: Style(fg: .red)), " db-01    10.0.0.2"],
        [Span("●", style: Style(fg: .yellow)), " 日本語サーバー"],
        [Span("●", style: Style(fg: .gray)), " café-ünïcode"],
        [Span("●", style: Style(fg: .green)), " 🚀 rocket-box"],
    ]
    var list = ListState()
    var field = TextField()
    var scrollback = ScrollbackBuffer(maxLines: 2000)
    var view = TextViewState()
    var sanitizer = TextSanitizer()
    var search: String?
    var match: SearchMatch?
    var showHelp = false
    var streaming = true
    var tick = 0
    var quit = false
    var wantsChild = false
    var unicode = true
    private var outputHeight = 10

    mutating func handle(_ event: InputEvent) {
        switch event {
        case .resize: break
        case .wheelUp: view.scroll(by: -3, in: scrollback, height: outputHeight)
        case .wheelDown: view.scroll(by: 3, in: scrollback, height: outputHeight)
        case .key(let key):
            if showHelp && (key == .escape || key == .function(1)) {
                showHelp = false
                return
            }
            if let action = DemoAction.table.action(for: key) {
                perform(action)
            } else if key == .escape {
                search = nil
                match = nil
            } else {
                _ = field.handle(key)
            }
        }
    }

    /// Bytes from the (untrusted) stream.
    mutating func receive(_ bytes: [UInt8]) {
        scrollback.append(sanitizer.feed(bytes))
    }

    mutating func endOfStream() {
        scrollback.append(sanitizer.finish())
        scrollback.appendLine("-- end of stream --")
        streaming = false
    }

    private mutating func perform(_ action: DemoAction) {
        switch action {
        case .selectUp: list.selectPrevious(count: servers.count)
        case .selectDown: list.selectNext(count: servers.count)
        case .scrollUp: view.scroll(by: -outputHeight, in: scrollback, height: outputHeight)
        case .scrollDown: view.scroll(by: outputHeight, in: scrollback, height: outputHeight)
        case .oldest: view.scrollToTop(in: scrollback)
        case .newest: view.scrollToBottom(in: scrollback, height: outputHeight)
        case .run:
            scrollback.appendLine("> " + field.text)
            field.setText("")
        case .search:
            search = field.text.isEmpty ? nil : field.text
            match = nil
            findNext()
        case .nextMatch: findNext()
        case .child: wantsChild = true
        case .help: showHelp.toggle()
        case .quit: quit = true
        }
    }

    private mutating func findNext() {
        guard let search else { return }
        let from = match?.before ?? SearchMatch.Position(line: scrollback.endLine - 1, byteOffset: Int.max / 2)
        match = scrollback.search(search, from: from, direction: .backward)
        if let match { view.reveal(line: match.line, in: scrollback, height: outputHeight) }
    }

    /// Draws everything into `buffer`; returns where the cursor goes.
    mutating func render(into buffer: inout Buffer) -> Point? {
        buffer.fill(buffer.area)
        if SizeGuard().renderIfTooSmall(into: &buffer) { return nil }
        let border: Border = unicode ? .unicode : .ascii
        let rows = Layout.split(buffer.area, .vertical, [.fixed(1), .fill(1), .fixed(1), .fixed(1)])
        let spinner = unicode ? Spinner.unicode : Spinner.ascii
        let state = streaming ? "\(spinner.frame(tick)) streaming" : "idle"
        let status = "\(state) · \(scrollback.endLine) lines"
        StatusBar(left: [" TUIKit demo"], right: [Span(status + " ")]).render(in: rows[0], buffer: &buffer)
        let columns = Layout.split(rows[1], .horizontal, [.percent(30), .fill(1)])
        let listArea = Box(title: "Servers", border: border).render(in: columns[0], buffer: &buffer)
        ListView(items: servers).render(in: listArea, buffer: &buffer, state: &list)
        let title = search.map { "Output — find “\($0)”" + (match == nil ? " (none)" : "") } ?? "Output"
        let outputArea = Box(title: title, border: border).render(in: columns[1], buffer: &buffer)
        outputHeight = max(1, outputArea.height)
        TextView(highlight: search, currentMatch: match).render(scrollback, in: outputArea, buffer: &buffer,
                                                                state: &view)
        let prompt = buffer.setString("Command: ", x: rows[2].x, y: rows[2].y, style: Style(attributes: .bold))
        let fieldArea = Rect(x: prompt, y: rows[2].y, width: rows[2].maxX - prompt, height: 1)
        var cursor = field.render(in: fieldArea, buffer: &buffer)
        KeyBar(table: DemoAction.table).render(in: rows[3], buffer: &buffer)
        if showHelp {
            let area = buffer.area.centered(width: 60, height: DemoAction.table.bindings.count + 2)
            HelpView(table: DemoAction.table, title: "Keys (Esc closes)", border: border).render(in: area,
                                                                                                buffer: &buffer)
            cursor = nil
        }
        return cursor
    }
}
