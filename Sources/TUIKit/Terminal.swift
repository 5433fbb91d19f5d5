/// The screen and keyboard, as the app loop uses them. `CursesTerminal` is the real one, `TestTerminal`
/// the in-memory one. Every method is called from the one UI thread; only `waker` may be used from others.
public protocol Terminal: AnyObject {
    /// The current size in cells (updated when a `.resize` event is returned).
    var size: Size { get }

    /// Shows `buffer` as the next frame, writing only the cells that changed since the previous frame,
    /// then puts the cursor at `cursor` (hidden when nil).
    func draw(_ buffer: Buffer, cursor: Point?) throws

    /// Waits up to `timeout` (nil: without limit) for input. Returns nil when the time ran out or the `waker`
    /// was signalled, so the loop can look at its message queue; never spins while idle.
    func poll(timeout: Duration?) throws -> InputEvent?

    /// Wakes a `poll` in progress (or the next one) from any thread.
    var waker: any TerminalWaker { get }

    /// Hands the real terminal to `body` (an interactive child process), then takes it back and redraws
    /// everything on the next `draw`.
    func suspend<T>(_ body: () throws -> T) throws -> T

    /// Stops the process as Ctrl-Z does in a shell (SIGTSTP to its process group), with the terminal as it was
    /// before the program meanwhile; when `fg` continues it, takes the terminal back and redraws everything on the
    /// next `draw`. Returns at once where there is no job control (the system drops the stop).
    func stopProcess() throws

    /// Rings the bell.
    func bell()

    /// Has the terminal report the mouse wheel (`.wheelUp` / `.wheelDown`), or gives the mouse back to it (it then
    /// selects text without Shift).
    func setMouseReporting(_ on: Bool)

    /// Restores the terminal to how it was before; safe to call twice.
    func shutdown()
}

/// Wakes a terminal's `poll` from another thread (a background task posting a message).
public protocol TerminalWaker: Sendable {
    /// Makes the current or next `poll` return promptly.
    func wake()
}
