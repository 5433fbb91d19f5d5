import TUIKit

/// A dialog's keys and drawing: choose a button, and what the choice does.
enum DialogOverlay {
    static func key(_ state: inout AppState, _ dialog: DialogState, _ action: DialogAction?, _ key: Key) -> [Effect] {
        var dialog = dialog
        switch action {
        case .previous?: dialog.selected = max(0, dialog.selected - 1)
        case .next?: dialog.selected = min(dialog.buttons.count - 1, dialog.selected + 1)
        case .choose?: return close(&state, choice: dialog.selected)
        case .cancel?: return close(&state, choice: nil)
        case .scrollUp?, .scrollDown?:
            let last = widget(dialog, border: .unicode).layout(in: area(state.size)).lastTop
            dialog.top = min(max(0, dialog.top + (action == .scrollUp ? -1 : 1)), last)
        case nil:
            // The first letter of a button chooses it.
            if case .character(let c) = key,
               let i = dialog.buttons.firstIndex(where: { $0.lowercased().first == Character(c.lowercased()) }) {
                return close(&state, choice: i)
            }
        }
        state.dialog = dialog
        return []
    }

    static func close(_ state: inout AppState, choice: Int?) -> [Effect] {
        guard let dialog = state.dialog else { return [] }
        state.dialog = nil
        switch dialog.purpose {
        case .notice: return []
        case .confirmDelete(let name):
            return choice == 0 ? [.deleteServer(name)] : []
        case .importSSHConfig:
            return [.work(choice == 0 ? .importSSHConfig : .declineSSHConfigImport)]
        case .rememberPassword(let server), .updateVaultPassword(let server):
            // The buttons are No, Yes: only Yes stores it; No, Esc and Enter on the default forget the typed copy.
            return [.vault(choice == 1 ? .rememberTyped(server: server) : .forgetTyped)]
        case .switchToKey(let server, let to):
            // The buttons are No, Yes: only Yes switches.
            return Update.switchToKey(&state, server: server, to: to, yes: choice == 1)
        }
    }

    static func render(_ dialog: DialogState, border: Border, into buffer: inout Buffer) {
        widget(dialog, border: border).render(in: area(buffer.size), buffer: &buffer)
    }

    /// Where a dialog may go on a screen of `size`.
    static func area(_ size: Size) -> Rect { Rect(size).inset(horizontal: 2, vertical: 1) }

    static func widget(_ dialog: DialogState, border: Border) -> Dialog {
        Dialog(title: dialog.title, message: dialog.message, buttons: dialog.buttons, selected: dialog.selected,
               border: border, top: dialog.top)
    }
}
