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
        }
    }

    static func render(_ dialog: DialogState, border: Border, into buffer: inout Buffer) {
        _ = Dialog(title: dialog.title, message: dialog.message, buttons: dialog.buttons, selected: dialog.selected,
                   border: border).render(in: buffer.area.inset(horizontal: 2, vertical: 1), buffer: &buffer)
    }
}
