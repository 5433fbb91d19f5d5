/// How eSSH stops a remote command it gives up on (a cancel, `--timeout`, Ctrl-C, Esc, a fleet's cancel or
/// deadline): RFC 4254 "signal" requests, each followed by a short wait for the command to end, then the channel is
/// closed. The request asks for no reply, so the only sign a signal worked is the command ending: the server sends
/// exit-signal (or exit-status) and closes the channel. A server that ignores the requests (OpenSSH for root logins,
/// forced commands and subsystems) gets the channel closed after the last wait.
public struct StopEscalation: Sendable, Equatable {
    /// One signal (its RFC 4254 name, without `SIG`) and the seconds to wait for the command to end after it.
    public struct Step: Sendable, Equatable {
        /// The signal's name as RFC 4254 spells it (`INT`, `TERM`, `KILL`; OpenSSH also takes HUP, QUIT, USR1, USR2).
        public var signal: String
        /// Seconds to wait for the command to end before the next step (or the close).
        public var grace: Double

        /// A step: send `signal`, then wait up to `grace` seconds.
        public init(_ signal: String, grace: Double) {
            self.signal = signal
            self.grace = grace
        }
    }

    /// The signals in the order they are sent, each with its wait.
    public var steps: [Step]

    /// An escalation of these steps (none: the channel is only closed).
    public init(steps: [Step]) { self.steps = steps }

    /// INT, then TERM, then KILL, half a second apart; the channel is closed at most 1.5 s after the stop began.
    /// OpenSSH 9.2 ends an ordinary command within milliseconds of INT (docs/DECISIONS.md, 2026-11-24); the later
    /// steps are for commands that ignore INT, then TERM. 1.5 s stays inside a fleet run's 2 s grace period.
    public static let standard = StopEscalation(steps: [
        Step("INT", grace: 0.5), Step("TERM", grace: 0.5), Step("KILL", grace: 0.5),
    ])

    /// No signal: the channel is only closed (what eSSH did before 2026-11-24; the command keeps running on a server
    /// that does not hang it up).
    public static let closeOnly = StopEscalation(steps: [])

    /// Seconds from the start of a stop until the channel is closed at the latest.
    public var limit: Double { steps.reduce(0) { $0 + max(0, $1.grace) } }

    /// When step `index` is due, in seconds from the start of the stop: a fixed schedule, so a late send (a full
    /// socket) never pushes the end past `limit`.
    func due(_ index: Int) -> Double { steps.prefix(index).reduce(0) { $0 + max(0, $1.grace) } }
}

/// A stop as it runs: a pure state machine fed the seconds since the stop began and whether the command has ended;
/// `SSHSession.stopRemoteCommand` carries out what it answers. No clock, no I/O.
struct StopProgress: Sendable, Equatable {
    enum Action: Sendable, Equatable {
        /// Send this signal request now.
        case send(String)
        /// Read the channel (discarding output) until the command ends or this many seconds from the start pass.
        case wait(until: Double)
        /// The command ended: nothing more to send.
        case ended
        /// Time is up with the command still running (or the server ignoring the requests): close the channel.
        case giveUp
    }

    let escalation: StopEscalation
    /// The signals sent so far, in order.
    private(set) var sent: [String] = []

    init(_ escalation: StopEscalation) { self.escalation = escalation }

    mutating func next(elapsed: Double, commandEnded: Bool) -> Action {
        if commandEnded { return .ended }
        if elapsed >= escalation.limit { return .giveUp }
        let index = sent.count
        guard index < escalation.steps.count else { return .wait(until: escalation.limit) }
        let due = escalation.due(index)
        guard elapsed >= due else { return .wait(until: due) }
        sent.append(escalation.steps[index].signal)
        return .send(escalation.steps[index].signal)
    }
}

/// What a stop did, for logs and `SSHError.detail`.
struct StopReport: Sendable, Equatable {
    enum Outcome: Sendable, Equatable {
        /// The server said the command ended (exit-signal, exit-status or its close).
        case ended
        /// Still running when time was up: the channel was closed.
        case stillRunning
        /// Nothing was sent: the connection is broken (the server ends the session's processes or not, on its own).
        case notSignalled
        /// The connection failed (or its socket stayed full) while stopping: the session is marked broken.
        case connectionFailed
    }

    var outcome: Outcome
    var sent: [String]

    var description: String {
        let signals = sent.isEmpty ? "no signal" : sent.joined(separator: ", ")
        switch outcome {
        case .ended: return sent.isEmpty ? "the remote command had ended" : "the remote command ended after \(signals)"
        case .stillRunning:
            return "no end of the remote command seen after \(signals) (the server may ignore signal requests); "
                + "channel closed"
        case .notSignalled: return "the remote command was not signalled (the connection is broken)"
        case .connectionFailed:
            return "the connection failed while stopping the remote command (sent: \(signals))"
        }
    }
}
