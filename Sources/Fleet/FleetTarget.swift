import SSH

/// One server to run the fleet command on: its name and how to log in. The caller builds `options` the way it
/// builds them for a single connection (the CLI from a saved server or DEST, the TUI from `ConnectionProfile`).
public struct FleetTarget: Sendable {
    /// The name shown in the output (`web1`).
    public var name: String
    public var options: ConnectOptions
    /// Who answers questions while logging in; a fleet never asks a person (see `init`).
    public var prompter: any Prompter
    /// Why this server cannot be tried at all (an unreadable key file); it is reported as unreachable at once.
    public var problem: String?

    /// A fleet never stops to ask: an unknown host key under `ask` is refused as under `strict` (the error says how
    /// to confirm it once with `essh exec NAME`), and questions go to `prompter`, which should answer from what it
    /// was given (a password file) or not at all.
    public init(name: String, options: ConnectOptions, prompter: any Prompter = NonInteractivePrompter(),
                problem: String? = nil) {
        self.name = name
        var options = options
        if options.hostKeyPolicy == .ask { options.hostKeyPolicy = .strict }
        self.options = options
        self.prompter = prompter
        self.problem = problem
    }
}
