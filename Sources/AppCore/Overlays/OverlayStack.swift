/// Something open over the screen. Which kinds exist, and nothing else, is decided here.
enum Overlay: Sendable {
    /// The keys of the screen below (F1, `?`).
    case help(HelpState)
    /// A question with buttons, or a message to acknowledge.
    case dialog(DialogState)
    /// A text question from the SSH worker (password, passphrase, keyboard-interactive).
    case prompt(PromptState)
    /// What `x` asks on the Servers screen before a fleet run.
    case fleetQuestion(FleetQuestion)
    /// The mail / save / pipe form over the session, or the mail form over the fleet results.
    case outputTool(OutputToolState)
    /// F5's question on the Files screen when a name being copied is in the destination folder already.
    case filesConflict(FilesConflictQuestion)

    /// What kind of overlay this is.
    enum Kind: Sendable, Equatable {
        case help, dialog, prompt, fleetQuestion, outputTool, filesConflict
    }

    var kind: Kind {
        switch self {
        case .help: return .help
        case .dialog: return .dialog
        case .prompt: return .prompt
        case .fleetQuestion: return .fleetQuestion
        case .outputTool: return .outputTool
        case .filesConflict: return .filesConflict
        }
    }

    /// Whether it belongs to the screen it was opened on (and closes when the screen changes). Dialogs and prompts
    /// belong to work that outlives a screen (a connection, a mail being sent).
    var belongsToScreen: Bool {
        switch self {
        case .help, .fleetQuestion, .outputTool, .filesConflict: return true
        case .dialog, .prompt: return false
        }
    }
}

/// The overlays open over the screen, oldest first: ONE order that decides both which one takes a key (the top)
/// and the drawing order (bottom to top), in the manner of htop's `ScreenManager`. At most one of each kind.
struct OverlayStack: Sendable {
    private(set) var items: [Overlay] = []

    /// The overlay that takes the keys.
    var top: Overlay? { items.last }

    var isEmpty: Bool { items.isEmpty }

    /// Opens `overlay` on top, or replaces the open one of its kind where it is.
    mutating func open(_ overlay: Overlay) {
        if let i = items.firstIndex(where: { $0.kind == overlay.kind }) {
            items[i] = overlay
        } else {
            items.append(overlay)
        }
    }

    /// Closes the overlay of this kind (if open).
    mutating func close(_ kind: Overlay.Kind) {
        items.removeAll { $0.kind == kind }
    }

    /// Closes the overlays that belong to the screen being left.
    mutating func closeScreenOverlays() {
        items.removeAll { $0.belongsToScreen }
    }

    private func first(_ kind: Overlay.Kind) -> Overlay? { items.first { $0.kind == kind } }

    private mutating func set(_ kind: Overlay.Kind, _ overlay: Overlay?) {
        if let overlay { open(overlay) } else { close(kind) }
    }

    var help: HelpState? {
        get { if case .help(let value)? = first(.help) { return value } else { return nil } }
        set { set(.help, newValue.map(Overlay.help)) }
    }

    var dialog: DialogState? {
        get { if case .dialog(let value)? = first(.dialog) { return value } else { return nil } }
        set { set(.dialog, newValue.map(Overlay.dialog)) }
    }

    var prompt: PromptState? {
        get { if case .prompt(let value)? = first(.prompt) { return value } else { return nil } }
        set { set(.prompt, newValue.map(Overlay.prompt)) }
    }

    var fleetQuestion: FleetQuestion? {
        get { if case .fleetQuestion(let value)? = first(.fleetQuestion) { return value } else { return nil } }
        set { set(.fleetQuestion, newValue.map(Overlay.fleetQuestion)) }
    }

    var outputTool: OutputToolState? {
        get { if case .outputTool(let value)? = first(.outputTool) { return value } else { return nil } }
        set { set(.outputTool, newValue.map(Overlay.outputTool)) }
    }

    var filesConflict: FilesConflictQuestion? {
        get { if case .filesConflict(let value)? = first(.filesConflict) { return value } else { return nil } }
        set { set(.filesConflict, newValue.map(Overlay.filesConflict)) }
    }
}
