import TUIKit

/// A spinner with the stage the connection has reached.
enum ConnectingView {
    static func render(_ connecting: ConnectingState, _ state: AppState, into buffer: inout Buffer) {
        let spinner = state.unicode ? Spinner.unicode : Spinner.ascii
        let label = "Connecting to \(connecting.target.label(localUser: state.localUser)): \(connecting.stage)"
        var area = buffer.area.centered(width: min(buffer.size.width - 2, DisplayWidth.of(label) + 2), height: 1)
        if !connecting.banner.isEmpty {
            // The server's banner above the spinner, as many lines as fit, in a frame that says whose it is.
            let lines = connecting.banner
            let height = min(lines.count + 2, max(buffer.size.height - 4, 3))
            let width = min(buffer.size.width - 2, max(lines.map(DisplayWidth.of).max() ?? 0, 24) + 4)
            let box = Rect(x: max((buffer.size.width - width) / 2, 0), y: 1, width: width, height: height)
            let inner = Box(title: "Message from the server", border: Border.preferred(unicode: state.unicode))
                .render(in: box, buffer: &buffer)
            for (i, line) in lines.prefix(inner.height).enumerated() {
                buffer.setString(line, x: inner.x + 1, y: inner.y + i,
                                 clip: Rect(x: inner.x + 1, y: inner.y + i, width: inner.width - 2, height: 1))
            }
            area.y = min(box.y + box.height + 1, buffer.size.height - 2)
        }
        // The hops through jump hosts, one line each with its stage, above the spinner: still in view while a
        // question about one of them (its host key, its password) is open in the middle.
        if !connecting.hops.isEmpty {
            let lines = ["Through jump hosts:"] + connecting.hops.map(\.line)
            let width = min(buffer.size.width - 2, lines.map(DisplayWidth.of).max() ?? 0)
            let x = max(1, (buffer.size.width - width) / 2)
            var y = connecting.banner.isEmpty ? 1 : area.y
            for (i, line) in lines.enumerated() where y < buffer.size.height - 2 {
                buffer.setString(line, x: x, y: y, style: i == 0 ? Theme.hint : Style(),
                                 clip: Rect(x: x, y: y, width: max(0, buffer.size.width - x - 1), height: 1))
                y += 1
            }
            area.y = max(area.y, min(y + 1, buffer.size.height - 2))
        }
        let hint = Rect(x: 0, y: buffer.size.height - 1, width: buffer.size.width, height: 1)
        // What this connection's login was told on the way (a vault that would not open, a credential command that
        // failed), above the bottom line: the question asked instead is in view with its reason.
        if let notice = connecting.told, buffer.size.height > 3 {
            let line = Rect(x: 1, y: buffer.size.height - 2, width: max(0, buffer.size.width - 2), height: 1)
            buffer.setString(notice, x: line.x, y: line.y, style: Theme.hint, clip: line)
        }
        guard state.overlays.isEmpty else {
            // A question (password, host key) is open in the middle, where the spinner would be: the spinner's line
            // would show on both sides of it. The stage goes to the bottom line, which no question covers; Esc is
            // the question's now.
            spinner.render(tick: state.tick, label: label, in: hint.inset(horizontal: 1, vertical: 0),
                           buffer: &buffer, style: Theme.hint)
            return
        }
        spinner.render(tick: state.tick, label: label, in: area, buffer: &buffer)
        // Where a quick-connect name came from ("from ~/.ssh/config line 12"), under the spinner.
        let below = area.y + 2
        if let origin = connecting.origin, below < buffer.size.height - 1 {
            let line = Rect(x: 1, y: below, width: max(0, buffer.size.width - 2), height: 1)
            let x = max(line.x, (buffer.size.width - DisplayWidth.of(origin)) / 2)
            buffer.setString(origin, x: x, y: line.y, style: Theme.hint, clip: line)
        }
        buffer.setString(" Esc: cancel", x: 0, y: hint.y, style: Theme.hint, clip: hint)
    }
}
