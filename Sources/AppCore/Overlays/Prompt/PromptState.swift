import TUIKit

/// A masked (or plain) text question on screen: a password, a passphrase, keyboard-interactive prompts.
struct PromptState: Sendable, Equatable {
    var id: Int
    var title: String
    /// One label per answer; the person answers them in turn.
    var labels: [String]
    var echo: [Bool]
    var answers: [String] = []
    var input: TextField

    init(id: Int, title: String, labels: [String], echo: [Bool]) {
        self.id = id
        self.title = title
        self.labels = labels
        self.echo = echo
        input = TextField(masked: !(echo.first ?? false))
    }

    var currentLabel: String { labels.indices.contains(answers.count) ? labels[answers.count] : "" }
}
