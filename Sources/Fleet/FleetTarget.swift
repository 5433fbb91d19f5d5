import SSH

/// One server to run the fleet command on: its name and how to log in. The caller builds `options` the way it
/// builds them for a single connection (the CLI from a saved server or DEST, the TUI from `ConnectionProfile`).
public struct FleetTarget: Sendable {
    /// The name shown in the output (`web1`).
    public var name: String
    public var options: ConnectOptions
    /// Who answers questions while logging in; a fleet never asks a person (see `init`).
    public var prompter: any Prompter
    /// Why this server is not tried (an unreadable key file, no password, a host key found unknown before the run
    /// asked for the password): it is reported at once with this status and sentence.
    public var problem: Problem?
    /// Called on the worker thread once the target's session logged in, with the identity that did (a front end
    /// remembers the key for a saved server: `IdentityMemory.recorder`); nil: nothing is called.
    public var onLogin: (@Sendable (LoginIdentity) -> Void)?

    /// A status and its sentence, decided before the run.
    public struct Problem: Sendable, Equatable {
        public var status: FleetStatus
        public var message: String

        public init(_ status: FleetStatus, _ message: String) {
            self.status = status
            self.message = message
        }
    }

    /// A fleet never stops to ask: an unknown host key under `ask` is refused as under `strict` (the error says how
    /// to confirm it once), and questions go to `prompter`, which should answer from what it was given (a password
    /// file, the password asked before the run) or not at all.
    public init(name: String, options: ConnectOptions, prompter: any Prompter = NonInteractivePrompter(),
                problem: Problem? = nil) {
        self.name = name
        func noQuestions(_ options: ConnectOptions) -> ConnectOptions {
            var options = options
            if options.hostKeyPolicy == .ask { options.hostKeyPolicy = .strict }
            options.jumps = options.jumps.map(noQuestions)  // jump hosts are not asked about either
            return options
        }
        self.options = noQuestions(options)
        self.prompter = prompter
        self.problem = problem
    }
}
