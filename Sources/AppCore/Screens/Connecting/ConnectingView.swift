import TUIKit

/// A spinner with the stage the connection has reached.
enum ConnectingView {
    static func render(_ state: AppState, into buffer: inout Buffer) {
        guard let connecting = state.connecting else { return }
        let spinner = state.unicode ? Spinner.unicode : Spinner.ascii
        let label = "Connecting to \(connecting.target.label(localUser: state.localUser)): \(connecting.stage)"
        let area = buffer.area.centered(width: min(buffer.size.width - 2, DisplayWidth.of(label) + 2), height: 1)
        spinner.render(tick: state.tick, label: label, in: area, buffer: &buffer)
        let hint = Rect(x: 0, y: buffer.size.height - 1, width: buffer.size.width, height: 1)
        buffer.setString(" Esc: cancel", x: 0, y: hint.y, style: Theme.hint, clip: hint)
    }
}
