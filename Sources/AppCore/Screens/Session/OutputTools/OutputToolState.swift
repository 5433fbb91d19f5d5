import TUIKit

/// The small form open over the session for the current output: mail it (F6), save it (F7), pipe it (`|`).
struct OutputToolState: Sendable, Equatable {
    enum Kind: Sendable, Equatable {
        case mail
        case save
        case pipe
    }

    /// One line of the form.
    struct Field: Sendable, Equatable {
        var label: String
        var input: TextField
    }

    var kind: Kind
    var fields: [Field]
    var focus = 0
    /// Mail only: whether the parsed table can be chosen (the view shows one), and whether it is.
    var tableAvailable = false
    var sendTable = false
    /// What is wrong (bad address, file exists); shown in the form, which stays open.
    var error: String?

    var title: String {
        switch kind {
        case .mail: return "Mail the output"
        case .save: return "Save the output"
        case .pipe: return "Pipe the output into a local command"
        }
    }

    /// The keys line at the bottom of the form.
    var hint: String {
        switch kind {
        case .mail:
            return tableAvailable ? "Enter send · Tab next · F5 table/raw · Esc cancel" : "Enter send · Tab next · Esc cancel"
        case .save: return "Enter save (never overwrites) · Esc cancel"
        case .pipe: return "Enter run (e.g. less, wc -l) · Esc cancel"
        }
    }

    func text(_ index: Int) -> String { fields.indices.contains(index) ? fields[index].input.text : "" }

    static func mail(to: String, subject: String, tableAvailable: Bool) -> OutputToolState {
        var state = OutputToolState(kind: .mail, fields: [
            Field(label: "To", input: TextField(to)), Field(label: "Subject", input: TextField(subject)),
        ])
        state.tableAvailable = tableAvailable
        state.sendTable = tableAvailable
        return state
    }

    static func save(path: String) -> OutputToolState {
        OutputToolState(kind: .save, fields: [Field(label: "File", input: TextField(path))])
    }

    static func pipe(command: String) -> OutputToolState {
        OutputToolState(kind: .pipe, fields: [Field(label: "Command", input: TextField(command))])
    }
}
