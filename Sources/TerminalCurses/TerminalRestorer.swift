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

    /// Stops the process group as a Ctrl-Z typed at a shell would (the terminal is in raw mode, so the key did not
    /// make the signal): SIGTSTP with its default action for the moment (curses' own handler would end curses a
    /// second time), so the process stops here and this returns once `fg` (SIGCONT) continues it. Where nothing
    /// does job control (an orphaned process group) the system drops the signal and this returns at once.
    static func stopProcess() {
        var stop = sigaction()
        stop.__sigaction_handler.sa_handler = SIG_DFL
        sigemptyset(&stop.sa_mask)
        var previous = sigaction()
        sigaction(SIGTSTP, &stop, &previous)
        var unblock = sigset_t()
        sigemptyset(&unblock)
        sigaddset(&unblock, SIGTSTP)
        var mask = sigset_t()
        pthread_sigmask(SIG_UNBLOCK, &unblock, &mask)
        kill(0, SIGTSTP)
        pthread_sigmask(SIG_SETMASK, &mask, nil)
        sigaction(SIGTSTP, &previous, nil)
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
