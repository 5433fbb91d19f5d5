import TUIKit

/// The whole screen as a pure function of the state: the current screen, then a dialog, prompt or help on top.
/// Returns where the cursor goes (nil: hidden).
enum AppView {
    static func render(_ state: AppState, into buffer: inout Buffer) -> Point? {
        if SizeGuard().renderIfTooSmall(into: &buffer) { return nil }
        var cursor: Point?
        switch state.screen {
        case .servers: cursor = ServersView.render(state, into: &buffer)
        case .form: if let form = state.form { cursor = FormView.render(form, unicode: state.unicode, into: &buffer) }
        case .connecting: ConnectingView.render(state, into: &buffer)
        case .session: cursor = SessionView.render(state, into: &buffer)
        case .summary:
            if let summary = state.summary { SummaryView.render(summary, unicode: state.unicode, into: &buffer) }
        case .fleet: cursor = FleetView.render(state, into: &buffer)
        }
        let border = Border.preferred(unicode: state.unicode)
        if state.screen == .session, let tool = state.session?.tool {
            cursor = OutputToolView.render(tool, border: border, into: &buffer)
        }
        if let dialog = state.dialog {
            _ = Dialog(title: dialog.title, message: dialog.message, buttons: dialog.buttons, selected: dialog.selected,
                       border: border).render(in: buffer.area.inset(horizontal: 2, vertical: 1), buffer: &buffer)
            return nil
        }
        if let prompt = state.prompt { return render(prompt, border: border, into: &buffer) }
        if let question = state.fleet.question {
            return FleetView.render(question, count: state.fleet.pendingNames.count, border: border, into: &buffer)
        }
        if state.showHelp {
            let items = helpItems(state)
            let area = buffer.area.centered(width: min(buffer.size.width, 70),
                                            height: min(buffer.size.height, items.count + 2))
            var help = HelpView(table: SessionAction.table, title: "Keys (Esc closes)", border: border)
            help.items = items
            help.render(in: area, buffer: &buffer)
            return nil
        }
        return cursor
    }

    static func helpItems(_ state: AppState) -> [(keys: String, description: String)] {
        switch state.screen {
        case .servers: return ServersAction.table.helpItems
        case .form: return FormAction.table.helpItems
        case .session: return SessionAction.table.helpItems
        case .fleet: return FleetAction.table.helpItems
        case .connecting, .summary: return SummaryAction.table.helpItems
        }
    }

    static func render(_ prompt: PromptState, border: Border, into buffer: inout Buffer) -> Point? {
        let width = min(buffer.size.width - 2, max(50, DisplayWidth.of(prompt.currentLabel) + 4))
        let frame = buffer.area.centered(width: width, height: 6)
        buffer.fill(frame)
        let inner = Box(title: prompt.title, border: border).render(in: frame, buffer: &buffer)
        buffer.setString(prompt.currentLabel, x: inner.x + 1, y: inner.y, clip: inner)
        let field = Rect(x: inner.x + 1, y: inner.y + 1, width: max(0, inner.width - 2), height: 1)
        let cursor = prompt.input.render(in: field, buffer: &buffer, style: Theme.field)
        buffer.setString("Enter: send   Esc: give up", x: inner.x + 1, y: inner.y + 3, style: Theme.hint, clip: inner)
        return cursor
    }
}
