import TUIKit

/// The whole screen as a pure function of the state: the current screen, then the overlays bottom to top (the
/// same stack that gives the top one the keys). Returns where the cursor goes (nil: hidden).
package enum AppView {
    package static func render(_ state: AppState, into buffer: inout Buffer) -> Point? {
        if SizeGuard().renderIfTooSmall(into: &buffer) { return nil }
        var cursor: Point?
        switch state.screen {
        case .servers: cursor = ServersView.render(state, into: &buffer)
        case .form(let form): cursor = FormView.render(form, unicode: state.unicode, into: &buffer)
        case .connecting(let connecting): ConnectingView.render(connecting, state, into: &buffer)
        case .session(let session): cursor = SessionView.render(session, state, into: &buffer)
        case .summary(let summary): SummaryView.render(summary, unicode: state.unicode, into: &buffer)
        case .fleet(let run): cursor = FleetView.render(run, state, into: &buffer)
        case .tunnels(let tunnels): cursor = TunnelsView.render(tunnels, state, into: &buffer)
        case .files(let files): cursor = FilesView.render(files, state, into: &buffer)
        }
        let border = Border.preferred(unicode: state.unicode)
        for overlay in state.overlays.items {
            switch overlay {
            case .help(let help):
                HelpOverlay.render(help, state: state, into: &buffer)
                cursor = nil
            case .dialog(let dialog):
                DialogOverlay.render(dialog, border: border, into: &buffer)
                cursor = nil
            case .prompt(let prompt):
                cursor = PromptOverlay.render(prompt, border: border, into: &buffer)
            case .fleetQuestion(let question):
                cursor = FleetView.render(question, count: state.fleet.pendingNames.count,
                                          history: state.fleet.history, border: border, into: &buffer)
            case .outputTool(let tool):
                cursor = OutputToolView.render(tool, border: border, into: &buffer)
            case .filesConflict(let question):
                FilesView.renderConflict(question, state, border: border, into: &buffer)
                cursor = nil
            }
        }
        return cursor
    }
}
