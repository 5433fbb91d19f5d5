import CNCursesW
import Glibc

// Signal handlers cannot capture context, so what they need lives in globals set once by the UI thread.
nonisolated(unsafe) private var cursesActive = false
nonisolated(unsafe) private var resizeFD: Int32 = -1
nonisolated(unsafe) private var savedActions = UnsafeMutablePointer<sigaction>.allocate(capacity: 65)
nonisolated(unsafe) private var installed = false

/// Puts the terminal back however the process ends: normal exit (atexit), SIGINT/SIGTERM/SIGHUP/SIGQUIT
/// (end curses, then die of the same signal), and crash signals (end curses, then hand the signal to the
/// handler that was there before, such as Swift's backtracer, so the crash report lands on a normal screen).
/// Also turns SIGWINCH into a byte on the wake pipe, so a resize wakes `poll` at once.
enum TerminalRestorer {
    static let terminating: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]
    static let crashing: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE]

    /// Installs the handlers (once) before curses starts, so curses keeps its own hands off these signals.
    static func install(wakeFD: Int32) {
        resizeFD = wakeFD
        guard !installed else { return }
        installed = true
        for signal in terminating + crashing { setHandler(signal, restoreAndReraise) }
        setHandler(SIGWINCH, reportResize, flags: SA_RESTART)
        atexit { endCursesIfActive() }
    }

    /// Stops reporting resizes to a wake pipe that is about to close (its descriptor could be reused).
    static func detachWakePipe() { resizeFD = -1 }

    /// Marks curses as running (handlers will end it) or not.
    static func setActive(_ active: Bool) { cursesActive = active }

    /// While a child owns the terminal, Ctrl-C and Ctrl-\ are the child's business, not ours.
    static func ignoreInterrupts(_ ignore: Bool) {
        for signal in [SIGINT, SIGQUIT] {
            if ignore {
                var action = sigaction()
                action.__sigaction_handler.sa_handler = SIG_IGN
                sigemptyset(&action.sa_mask)
                sigaction(signal, &action, nil)
            } else {
                setHandler(signal, restoreAndReraise, keepSaved: true)
            }
        }
    }

    private static func setHandler(_ signal: Int32, _ handler: @convention(c) (Int32) -> Void, flags: Int32 = 0,
                                   keepSaved: Bool = false)
    {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = handler
        sigemptyset(&action.sa_mask)
        action.sa_flags = flags
        if keepSaved {
            sigaction(signal, &action, nil)
        } else {
            sigaction(signal, &action, savedActions + Int(signal))
        }
    }
}

private func endCursesIfActive() {
    if cursesActive {
        cursesActive = false
        endwin()
    }
}

private func restoreAndReraise(_ signal: Int32) {
    endCursesIfActive()
    sigaction(signal, savedActions + Int(signal), nil)
    raise(signal)
}

private func reportResize(_ signal: Int32) {
    guard resizeFD >= 0 else { return }
    let saved = errno
    var byte: UInt8 = 0x52
    _ = write(resizeFD, &byte, 1)
    errno = saved
}
