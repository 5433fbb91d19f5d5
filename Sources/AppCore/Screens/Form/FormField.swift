import TUIKit

/// One labelled text field of a form, with the message that says what is wrong with it.
struct FormField: Sendable, Equatable {
    /// What the field is (`host`, `port`, or a settings key).
    var key: String
    var label: String
    var input: TextField
    /// A short hint shown when there is no error.
    var hint: String
    /// Why the value cannot be saved, shown under the field.
    var error: String?
    /// The text the form opened with.
    let initial: String

    init(key: String, label: String, text: String = "", hint: String = "", masked: Bool = false) {
        self.key = key
        self.label = label
        self.input = TextField(text, masked: masked)
        self.hint = hint
        initial = text
    }

    /// Whether the person changed the text the form opened with.
    var isEdited: Bool { input.text != initial }
}
