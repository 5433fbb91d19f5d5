import CNCursesW
import Glibc
import TUIKit

/// The real terminal, through ncurses: the only place curses is called. Set-up and teardown live here
/// (locale, raw mode, colours, mouse wheel, restoring on exit and on signals); `draw` writes only the cells that
/// changed since the previous frame, then refreshes once. All calls must come from one thread (the UI loop);
/// other threads use `waker`.
public final class CursesTerminal: Terminal {
    /// How the terminal is set up.
    public struct Options: Sendable {
        /// Report mouse wheel turns from the start (the terminal then also captures clicks, and selecting text
        /// needs Shift); `setMouseReporting` changes it later.
        public var mouseWheel: Bool
        /// Use colours when the terminal has them; NO_COLOR in the environment turns them off regardless.
        public var colors: Bool
        /// How long to wait after Esc for the rest of a key sequence, in milliseconds.
        public var escapeDelay: Int32

        /// Options; the defaults suit eSSH.
        public init(mouseWheel: Bool = false, colors: Bool = true, escapeDelay: Int32 = 25) {
            self.mouseWheel = mouseWheel
            self.colors = colors
            self.escapeDelay = escapeDelay
        }
    }

    /// The current size.
    public private(set) var size: Size
    /// True when the locale is UTF-8, so box drawing and wide characters can be shown; otherwise the app should
    /// use `Border.ascii` and `Spinner.ascii` (non-ASCII text is shown as `?`).
    public let supportsUnicode: Bool
    /// True when colours are in use.
    public var usesColor: Bool { palette.colors }

    private let pipe: PipeWaker
    private var palette: CursesPalette
    private var previous: Buffer?
    private var cursorVisible: Bool?
    private var active = false
    private let screen: OpaquePointer

    /// Takes over the terminal on stdin/stdout; throws when they are not a terminal or TERM is unknown.
    public init(options: Options = Options()) throws {
        guard isatty(STDIN_FILENO) == 1 else { throw CursesError(.notATerminal, "standard input") }
        guard isatty(STDOUT_FILENO) == 1 else { throw CursesError(.notATerminal, "standard output") }
        setlocale(LC_ALL, "")
        supportsUnicode = String(cString: nl_langinfo(nl_item(CODESET))) == "UTF-8"
        pipe = try PipeWaker()
        TerminalRestorer.install(wakeFD: pipe.writeFD)
        guard let screen = newterm(nil, essh_stdout(), essh_stdin()) else {
            throw CursesError(.unknownTerminal, getenv("TERM").map { String(cString: $0) } ?? "(unset)")
        }
        // A terminal that cannot address the cursor (TERM=dumb, an editor's shell buffer) would show every frame as
        // a scroll of text: refuse before drawing anything.
        let cursorAddress = tigetstr("cup")
        if cursorAddress == nil || Int(bitPattern: cursorAddress) == -1 {
            endwin()
            delscreen(screen)
            TerminalRestorer.detachWakePipe()
            throw CursesError(.cannotDraw, getenv("TERM").map { String(cString: $0) } ?? "(unset)")
        }
        self.screen = screen
        set_term(screen)
        TerminalRestorer.setActive(true)
        active = true
        raw()
        noecho()
        nonl()
        keypad(essh_stdscr(), true)
        // Home and End as the Linux console, rxvt, screen and tmux send them, whatever TERM's terminfo says
        // (inside tmux with TERM=xterm-256color End arrives as ESC [ 4 ~ and would be typed as text).
        for (sequence, code) in [("\u{1B}[1~", KEY_HOME), ("\u{1B}[4~", KEY_END), ("\u{1B}[7~", KEY_HOME),
                                 ("\u{1B}[8~", KEY_END)] {
            define_key(sequence, code)
        }
        nodelay(essh_stdscr(), true)
        intrflush(essh_stdscr(), false)
        set_escdelay(options.escapeDelay)
        let noColor = getenv("NO_COLOR").map { $0.pointee != 0 } ?? false
        palette = CursesPalette(wanted: options.colors && !noColor)
        mouseinterval(0)
        if options.mouseWheel { mousemask(essh_wheel_mask(), nil) }
        var rows: Int32 = 0, cols: Int32 = 0
        essh_getmaxyx(essh_stdscr(), &rows, &cols)
        size = Size(width: Int(cols), height: Int(rows))
        setCursor(visible: false)
    }

    deinit {
        shutdown()
        delscreen(screen)
        TerminalRestorer.detachWakePipe()
    }

    /// A waker other threads use to make `poll` return.
    public var waker: any TerminalWaker { pipe }

    /// Writes the cells that differ from the previous frame (all of them after a resize or a suspension),
    /// places the cursor, and refreshes once.
    public func draw(_ buffer: Buffer, cursor: Point?) throws {
        guard active else { return }
        let base: Buffer
        if let previous, previous.size == buffer.size {
            base = previous
        } else {
            werase(essh_stdscr())
            base = Buffer(size: buffer.size)
        }
        for run in buffer.changes(from: base) {
            var x = run.x
            for cell in run.cells {
                if !cell.isContinuation { put(cell, x: x, y: run.y) }
                x += 1
            }
        }
        if let cursor, cursor.x >= 0, cursor.y >= 0, cursor.x < size.width, cursor.y < size.height {
            setCursor(visible: true)
            wmove(essh_stdscr(), Int32(cursor.y), Int32(cursor.x))
        } else {
            setCursor(visible: false)
        }
        wrefresh(essh_stdscr())
        previous = buffer
    }

    /// Waits for a key, a wheel turn, a resize or a wake-up, at most `timeout`; nil on timeout or wake-up.
    public func poll(timeout: Duration?) throws -> InputEvent? {
        guard active else { return nil }
        if let event = readInput() { return event }
        var fds = [pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: pipe.readFD, events: Int16(POLLIN), revents: 0)]
        let rc = Glibc.poll(&fds, 2, timeout.map(Self.milliseconds) ?? -1)
        if rc < 0 {
            guard errno == EINTR else { throw CursesError(.system, "poll: \(String(cString: strerror(errno)))") }
            return checkResize()
        }
        if fds[1].revents & Int16(POLLIN) != 0 {
            pipe.drain()
            if let event = checkResize() { return event }
        }
        if fds[0].revents & Int16(POLLIN) != 0 { return readInput() }
        if fds[0].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 {
            throw CursesError(.inputClosed, "hang-up on standard input")
        }
        return nil
    }

    /// Ends curses while `body` runs a child on the real terminal, then takes the terminal back;
    /// the next `draw` repaints everything.
    public func suspend<T>(_ body: () throws -> T) throws -> T {
        guard active else { return try body() }
        def_prog_mode()
        endwin()
        TerminalRestorer.setActive(false)
        TerminalRestorer.ignoreInterrupts(true)
        defer {
            TerminalRestorer.ignoreInterrupts(false)
            reset_prog_mode()
            TerminalRestorer.setActive(true)
            clearok(essh_curscr(), true)
            previous = nil
            cursorVisible = nil
            _ = checkResize()
            wrefresh(essh_stdscr())
        }
        return try body()
    }

    /// Ctrl-Z: curses ended and the terminal restored as for a child, the process stopped (`TerminalRestorer`),
    /// everything redrawn when `fg` continues it.
    public func stopProcess() throws {
        try suspend { TerminalRestorer.stopProcess() }
    }

    /// Turns the terminal's mouse reporting on (wheel turns come as events) or off (the terminal's own selection).
    public func setMouseReporting(_ on: Bool) {
        guard active else { return }
        mousemask(on ? essh_wheel_mask() : 0, nil)
        wrefresh(essh_stdscr())
    }

    /// Rings the terminal bell.
    public func bell() {
        if active { beep() }
    }

    /// Ends curses and restores the terminal (cursor, modes, normal screen); safe to call twice.
    public func shutdown() {
        guard active else { return }
        active = false
        setCursor(visible: true)
        endwin()
        TerminalRestorer.setActive(false)
    }

    private func put(_ cell: Cell, x: Int, y: Int) {
        let (attrs, pair) = palette.attributes(for: cell.style)
        var text: [wchar_t] = []
        for scalar in cell.text.unicodeScalars.prefix(5) {
            text.append(supportsUnicode || scalar.isASCII ? wchar_t(bitPattern: scalar.value) : 0x3F)
        }
        if text.isEmpty { text = [0x20] }
        // Our width table and the C library's can disagree on rare characters; never let curses lay out a
        // different width than the buffer did, or the rest of the row would shift.
        let cWidth = wcwidth(text[0])
        if cWidth != Int32(cell.width) {
            text = [cWidth == 2 || cWidth < 0 ? 0xFFFD : text[0]]
            if wcwidth(text[0]) != 1 { text = [0x3F] }
            text.append(0)
            _ = essh_put_cell(Int32(y), Int32(x), text, attrs, pair)
            if cell.width == 2 { _ = essh_put_cell(Int32(y), Int32(x + 1), [0x20, 0], attrs, pair) }
            return
        }
        text.append(0)
        // Writing the bottom-right cell reports an error (the cursor cannot advance) but the cell is written.
        _ = essh_put_cell(Int32(y), Int32(x), text, attrs, pair)
    }

    private func readInput() -> InputEvent? {
        while true {
            var value: wint_t = 0
            let rc = wget_wch(essh_stdscr(), &value)
            if rc == ERR { return nil }
            if rc == KEY_CODE_YES {
                let code = Int32(value)
                if code == KEY_RESIZE {
                    if let event = checkResize() { return event }
                    continue
                }
                if code == KEY_MOUSE {
                    var mouse = MEVENT()
                    guard getmouse(&mouse) == OK else { continue }
                    if essh_mouse_is_wheel_up(mouse.bstate) != 0 { return .wheelUp }
                    if essh_mouse_is_wheel_down(mouse.bstate) != 0 { return .wheelDown }
                    continue
                }
                if let key = CursesKeyMap.key(code: code) { return .key(key) }
                continue
            }
            if let key = CursesKeyMap.key(character: UInt32(value)) {
                if key == .escape, let alt = readAlt() { return .key(alt) }
                return .key(key)
            }
        }
    }

    /// After Esc: a digit that came with it, as Alt with it (curses has already waited `escapeDelay` for a sequence,
    /// so what came with Esc is there now). Anything else is put back for the next read.
    private func readAlt() -> Key? {
        var next: wint_t = 0
        let rc = wget_wch(essh_stdscr(), &next)
        if rc == OK {
            if let alt = CursesKeyMap.alt(next: CursesKeyMap.key(character: UInt32(next))) { return alt }
            unget_wch(wchar_t(bitPattern: UInt32(next)))
        } else if rc == KEY_CODE_YES {
            ungetch(Int32(next))
        }
        return nil
    }

    /// Compares the kernel's idea of the window size with ours; on a change tells curses and reports it.
    private func checkResize() -> InputEvent? {
        var ws = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &ws) == 0, ws.ws_row > 0, ws.ws_col > 0 else { return nil }
        let newSize = Size(width: Int(ws.ws_col), height: Int(ws.ws_row))
        guard newSize != size else { return nil }
        resizeterm(Int32(ws.ws_row), Int32(ws.ws_col))
        size = newSize
        previous = nil
        return .resize(newSize)
    }

    private func setCursor(visible: Bool) {
        guard cursorVisible != visible else { return }
        cursorVisible = visible
        curs_set(visible ? 1 : 0)
    }

    private static func milliseconds(_ duration: Duration) -> Int32 {
        let (seconds, attoseconds) = duration.components
        let ms = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        return Int32(clamping: max(0, ms))
    }
}
