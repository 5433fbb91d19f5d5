import Basics
import Glibc
import LocalProcess
import SSH

/// A shell on the server in the person's own terminal, as `ssh DEST` gives: the local terminal in raw mode, a PTY
/// of the same type and size on the server, keys and output passed byte for byte, window resizes forwarded,
/// keepalives so a dead network is noticed, and OpenSSH's `~.` escape to leave. Used by `essh shell` and by
/// the terminal interface (with curses suspended). It runs on the calling thread and uses the session only from
/// it; the terminal's settings and the signal handlers are back as they were when it returns.
public enum InteractiveShell {
    /// How to run it.
    public struct Options: Sendable {
        /// The terminal type the remote PTY gets (the local TERM).
        public var term: String
        /// The keyboard (a terminal: it is put in raw mode).
        public var input: Int32
        /// The screen the server's bytes go to.
        public var output: Int32
        /// The escape character (`~`); nil turns escapes off.
        public var escapeCharacter: UInt8?
        /// Unanswered keepalives in a row that end the shell (OpenSSH's ServerAliveCountMax).
        public var maxMissedKeepalives: Int
        /// Cancels from another thread (the command line's SIGINT/SIGTERM/SIGHUP handling).
        public var cancel: Cancellation?
        /// A command to run on the PTY instead of the login shell (`ssh -t DEST COMMAND`): the interface's
        /// commands that need a terminal (`sudo`, `top`, `vi`, `!COMMAND`).
        public var command: String?
        /// The folder `command` starts in (the session shell's working folder); nil: the login folder.
        public var directory: String?

        /// Options; TERM comes from the environment (`xterm-256color` when unset or empty).
        public init(term: String? = nil, input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO,
                    escapeCharacter: UInt8? = UInt8(ascii: "~"), maxMissedKeepalives: Int = 3,
                    cancel: Cancellation? = nil, command: String? = nil, directory: String? = nil) {
            self.term = term ?? Self.environmentTerm
            self.command = command
            self.directory = directory
            self.input = input
            self.output = output
            self.escapeCharacter = escapeCharacter
            self.maxMissedKeepalives = maxMissedKeepalives
            self.cancel = cancel
        }

        /// What the server is asked to run: `command`, after `cd` into `directory` when one is given (a folder that
        /// is gone stops it there, status 1 and the shell's own message, rather than running it somewhere else; a
        /// list such as `sudo -k; sudo true` runs whole after the `cd`).
        public var remoteCommand: String? {
            guard let command else { return nil }
            guard let directory, !directory.isEmpty else { return command }
            return "cd " + Self.shellQuoted(directory) + " || exit 1; " + command
        }

        /// `text` as one word for a POSIX shell (`Basics.ShellQuoting`, the one quoter).
        static func shellQuoted(_ text: String) -> String { ShellQuoting.quote(text) }

        /// `$TERM`, or `xterm-256color` when unset or empty.
        public static var environmentTerm: String {
            guard let value = getenv("TERM"), value.pointee != 0 else { return "xterm-256color" }
            return String(cString: value)
        }
    }

    /// Opens a shell on `session` and runs it until it exits, the connection drops, `~.` is typed or a signal
    /// or cancel comes. A terminating signal is handed on (re-raised) after everything is restored, so whatever
    /// handled it before (the interface's restorer, the command line's cancel) still sees it.
    public static func run(on session: SSHSession, options: Options = Options()) -> ShellOutcome {
        guard isatty(options.input) == 1 else {
            return ShellOutcome(end: .failedToStart("The standard input is not a terminal."), duration: 0)
        }
        let size = WindowSize.of(options.input) ?? WindowSize.of(options.output) ?? WindowSize(columns: 80, rows: 24)
        let started = monotonicSeconds()
        let channel: ShellChannel
        do {
            channel = try ShellChannel(session: session, term: options.term, cols: size.columns, rows: size.rows,
                                       command: options.remoteCommand, cancel: options.cancel)
        } catch {
            let end: ShellOutcome.End = switch error.kind {
            case .disconnected, .timedOut: .connectionLost(error.message)
            case .cancelled: .interrupted(nil)
            default: .failedToStart(error.message)
            }
            return ShellOutcome(end: end, duration: monotonicSeconds() - started)
        }
        let signals: ShellSignals
        let raw: RawMode
        do throws(ShellError) {
            signals = try ShellSignals()
            do throws(ShellError) { raw = try RawMode(descriptor: options.input) } catch {
                signals.stop()
                throw error
            }
        } catch {
            _ = channel.close()
            return ShellOutcome(end: .failedToStart(error.message), duration: monotonicSeconds() - started)
        }
        var loop = Loop(channel: channel, options: options, signalDescriptor: signals.readDescriptor, size: size)
        var end = loop.run(signals: signals)
        signals.stop()
        raw.restore()
        switch end {
        case .exited:
            end = .exited(channel.close())
        case .interrupted, .terminalClosed:
            _ = channel.close()
        case .escape, .connectionLost, .failedToStart:
            // Leaving at once is the point of `~.`; a lost server would only make us wait.
            _ = channel.close(graceful: false)
        }
        let outcome = ShellOutcome(end: end, duration: monotonicSeconds() - started,
                                   usedAlternateScreen: loop.screens.used)
        if case .interrupted(let signal?) = end { raise(signal) }
        return outcome
    }
}

/// The I/O loop between the terminal and the channel.
private struct Loop {
    let channel: ShellChannel
    let options: InteractiveShell.Options
    let signalDescriptor: Int32
    var size: WindowSize
    var scanner: EscapeScanner
    var watch: KeepaliveWatch
    /// Whether what runs switched to the alternate screen.
    var screens = AlternateScreenWatch()
    /// Typed bytes the channel has not taken yet (its window was full).
    var pending: [UInt8] = []
    /// At most this many reads per turn, so a flood of output never keeps the keyboard waiting.
    static let readsPerTurn = 16

    init(channel: ShellChannel, options: InteractiveShell.Options, signalDescriptor: Int32, size: WindowSize) {
        self.channel = channel
        self.options = options
        self.signalDescriptor = signalDescriptor
        self.size = size
        scanner = EscapeScanner(escapeCharacter: options.escapeCharacter ?? 0)
        watch = KeepaliveWatch(interval: Double(channel.keepaliveInterval), maxMissed: options.maxMissedKeepalives,
                               now: monotonicSeconds())
    }

    mutating func run(signals: ShellSignals) -> ShellOutcome.End {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
        defer { buffer.deallocate() }
        do throws(SSHError) {
            while true {
                if let end = try pumpRemote(buffer) { return end }
                if !pending.isEmpty {
                    let written = pending.withUnsafeBytes { bytes in
                        Result { () throws(SSHError) in try channel.write(bytes) }
                    }
                    pending.removeFirst(try written.get())
                }
                let now = monotonicSeconds()
                if watch.isLost(at: now) { return .connectionLost(watch.lostReason) }
                var locals = [signalDescriptor]
                if pending.isEmpty { locals.append(options.input) }
                if let cancel = options.cancel { locals.append(cancel.pollDescriptor) }
                let timeout = pending.isEmpty ? watch.secondsUntilCheck(at: now) : 0.02
                let ready = try channel.wait(localDescriptors: locals, timeout: timeout)
                if ready.remote { watch.heard(at: monotonicSeconds()) }
                if ready.local.contains(signalDescriptor) {
                    for signal in signals.drain() {
                        if signal == ShellSignals.resize {
                            try resizeIfChanged()
                        } else {
                            return .interrupted(signal)
                        }
                    }
                }
                if let cancel = options.cancel, ready.local.contains(cancel.pollDescriptor) { return .interrupted(nil) }
                if ready.local.contains(options.input), let end = readKeyboard(buffer) {
                    // What was typed before `~.` still goes (`exit⏎~.` in one paste), as far as the channel takes it
                    // now: the person asked to leave, so nothing waits.
                    if end == .escape, !pending.isEmpty {
                        _ = pending.withUnsafeBytes { try? channel.write($0) }
                    }
                    return end
                }
            }
        } catch {
            return .connectionLost(error.message)
        }
    }

    /// Passes what the server sent to the screen; the shell's end when its output ended.
    private mutating func pumpRemote(_ buffer: UnsafeMutableRawBufferPointer) throws(SSHError) -> ShellOutcome.End? {
        for _ in 0..<Self.readsPerTurn {
            switch try channel.read(into: buffer) {
            case .data(let n):
                watch.heard(at: monotonicSeconds())
                screens.feed(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
                if !writeAll(options.output, UnsafeRawBufferPointer(rebasing: buffer[0..<n])) { return .terminalClosed }
            case .nothing:
                return nil
            case .endOfFile:
                // The status is read when the channel is closed.
                return .exited(CommandExit(status: nil, signal: nil))
            }
        }
        return nil
    }

    /// Reads what was typed and acts on it; an end when the keyboard ended the shell.
    private mutating func readKeyboard(_ buffer: UnsafeMutableRawBufferPointer) -> ShellOutcome.End? {
        let n = read(options.input, buffer.baseAddress, 4096)
        if n < 0 { return errno == EINTR || errno == EAGAIN ? nil : .terminalClosed }
        if n == 0 { return .terminalClosed }
        let typed = UnsafeRawBufferPointer(rebasing: buffer[0..<n])
        guard options.escapeCharacter != nil else {
            pending.append(contentsOf: typed)
            return nil
        }
        for action in scanner.feed(typed) {
            switch action {
            case .send(let bytes): pending.append(contentsOf: bytes)
            case .disconnect: return .escape
            case .help:
                let text = Array(EscapeScanner.helpText(escapeCharacter: scanner.escapeCharacter).utf8)
                _ = text.withUnsafeBytes { writeAll(options.output, $0) }
            }
        }
        return nil
    }

    private mutating func resizeIfChanged() throws(SSHError) {
        guard let now = WindowSize.of(options.input) ?? WindowSize.of(options.output), now != size else { return }
        size = now
        try channel.resize(cols: now.columns, rows: now.rows)
    }
}


/// Seconds on the monotonic clock (never jumps with the wall clock).
func monotonicSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}
