/// How a remote command ended.
public struct CommandExit: Sendable, Equatable {
    /// The remote exit status, when the server sent one.
    public var status: Int32?
    /// The signal that killed the command (`TERM`, `KILL`), when the server sent one.
    public var signal: String?

    public init(status: Int32?, signal: String?) {
        self.status = status
        self.signal = signal
    }

    /// The exit code a local program should report: the remote status, 128+N for a signal (as shells do), 255
    /// when the server said nothing (OpenSSH's convention for "unknown").
    public var exitCode: Int32 {
        if let signal { return 128 + (Self.signalNumbers[signal] ?? 0) }
        return status ?? 255
    }

    /// `exit 3`, `killed by TERM` or `no exit status`, for sentences.
    var phrase: String {
        if let signal { return "killed by \(signal)" }
        return status.map { "exit \($0)" } ?? "no exit status"
    }

    /// Linux's signal numbers by the names RFC 4254 uses (without `SIG`); OpenSSH sends the standard ones, other
    /// servers the rest.
    static let signalNumbers: [String: Int32] = [
        "HUP": 1, "INT": 2, "QUIT": 3, "ILL": 4, "TRAP": 5, "ABRT": 6, "IOT": 6, "BUS": 7, "FPE": 8, "KILL": 9,
        "USR1": 10, "SEGV": 11, "USR2": 12, "PIPE": 13, "ALRM": 14, "TERM": 15, "STKFLT": 16, "CHLD": 17,
        "CONT": 18, "STOP": 19, "TSTP": 20, "TTIN": 21, "TTOU": 22, "URG": 23, "XCPU": 24, "XFSZ": 25,
        "VTALRM": 26, "PROF": 27, "WINCH": 28, "IO": 29, "POLL": 29, "PWR": 30, "SYS": 31,
    ]
}
