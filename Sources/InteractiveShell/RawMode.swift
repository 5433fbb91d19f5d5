import Glibc

// What a crash-signal handler needs to put the terminal back; set before raw mode starts, read only by handlers.
nonisolated(unsafe) private var restoreDescriptor: Int32 = -1
nonisolated(unsafe) private var restoreAttributes = termios()
nonisolated(unsafe) private var crashActions = UnsafeMutablePointer<sigaction>.allocate(capacity: 65)

/// The local terminal in raw mode while a shell owns it: every key goes to the server as typed (Ctrl-C, Ctrl-Z
/// and Ctrl-\ included, since the remote PTY turns them into signals), and output is written untouched. The
/// saved settings come back on every way out: `restore()` (the engine calls it on every path), and crash
/// signals, whose handler restores the settings before handing the signal on to the handler that was there
/// before (Swift's backtracer, TerminalCurses's restorer). Terminating signals never reach here: the engine
/// turns them into an orderly end (`ShellSignals`).
public final class RawMode {
    /// Crash signals whose handler puts the terminal back first.
    static let crashing: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE]

    private let descriptor: Int32
    private let saved: termios
    private var active = true

    /// Puts the terminal on `descriptor` in raw mode; throws a sentence when it is not a terminal.
    public init(descriptor: Int32) throws(ShellError) {
        var current = termios()
        guard tcgetattr(descriptor, &current) == 0 else {
            throw ShellError("The standard input is not a terminal (\(String(cString: strerror(errno)))).")
        }
        self.descriptor = descriptor
        saved = current
        restoreAttributes = current
        restoreDescriptor = descriptor
        for signal in Self.crashing {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = restoreTerminalAndChain
            sigemptyset(&action.sa_mask)
            sigaction(signal, &action, crashActions + Int(signal))
        }
        var raw = Self.rawAttributes(from: current)
        guard tcsetattr(descriptor, TCSADRAIN, &raw) == 0 else {
            let reason = String(cString: strerror(errno))
            releaseCrashHandlers()
            throw ShellError("The terminal could not be put in raw mode (\(reason)).")
        }
    }

    deinit { restore() }

    /// Puts the saved settings back; safe to call more than once.
    public func restore() {
        guard active else { return }
        active = false
        var attributes = saved
        while tcsetattr(descriptor, TCSADRAIN, &attributes) != 0 && errno == EINTR {}
        releaseCrashHandlers()
    }

    private func releaseCrashHandlers() {
        for signal in Self.crashing { sigaction(signal, crashActions + Int(signal), nil) }
        restoreDescriptor = -1
    }

    /// OpenSSH's raw mode (`enter_raw_mode`): no line editing, echo, signals, flow control or CR/NL mapping on
    /// input, no output processing; reads return after one byte.
    public static func rawAttributes(from attributes: termios) -> termios {
        var t = attributes
        t.c_iflag |= tcflag_t(IGNPAR)
        t.c_iflag &= ~tcflag_t(ISTRIP | INLCR | IGNCR | ICRNL | IXON | IXANY | IXOFF | IUCLC)
        t.c_lflag &= ~tcflag_t(ISIG | ICANON | ECHO | ECHOE | ECHOK | ECHONL | IEXTEN)
        t.c_oflag &= ~tcflag_t(OPOST)
        withUnsafeMutableBytes(of: &t.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        return t
    }
}

/// Crash path: tcsetattr is async-signal-safe; then the previous handler gets the signal as if we were not here.
private func restoreTerminalAndChain(_ signal: Int32) {
    if restoreDescriptor >= 0 { _ = tcsetattr(restoreDescriptor, TCSANOW, &restoreAttributes) }
    sigaction(signal, crashActions + Int(signal), nil)
    raise(signal)
}
