import Foundation
import LocalProcess
import TextWidth

/// The one way the command line writes to stdout and stderr. Writes go straight to the descriptors (all of the
/// bytes, short writes retried), never through FileHandle's write, which stops the program with a fatal error when
/// the reader went away. A closed stdout (`essh servers list | head -1`) ends the command quietly with exit status
/// 141, as a shell reports a program killed by SIGPIPE (main.swift ignores SIGPIPE, so the write fails with EPIPE).
enum TerminalOutput {
    static var stdoutIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 }
    static var stderrIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }

    /// Colour only on a terminal, and never when NO_COLOR is set (https://no-color.org) or TERM is dumb.
    static var colourOnStdout: Bool {
        let env = ProcessInfo.processInfo.environment
        if let noColor = env["NO_COLOR"], !noColor.isEmpty { return false }
        if env["TERM"] == "dumb" { return false }
        return stdoutIsTerminal
    }

    /// Writes `text` to stdout.
    static func write(_ text: String) {
        var text = text
        text.withUTF8 { write(bytes: UnsafeRawBufferPointer($0)) }
    }

    /// Writes `text` and a newline to stdout.
    static func line(_ text: String) { write(text + "\n") }

    /// Writes `bytes` to stdout as they are.
    static func write(bytes: [UInt8]) {
        bytes.withUnsafeBytes { write(bytes: $0) }
    }

    static func write(bytes: UnsafeRawBufferPointer) {
        guard !bytes.isEmpty, !writeAll(STDOUT_FILENO, bytes) else { return }
        let code = errno
        if code == EPIPE { exit(ExitStatus.brokenPipe.rawValue) }
        // A full disk or a revoked terminal: say so once, on stderr, and stop (sysexits' EX_IOERR).
        writeError("essh: cannot write the output: \(String(cString: strerror(code))).\n")
        exit(ExitStatus.outputFailed.rawValue)
    }

    /// Writes a remote machine's bytes to stdout: on a terminal through a `TerminalGuard` (what could act on the
    /// terminal is shown, not obeyed), into a pipe or a file as they are.
    static func writeRemote(bytes: [UInt8]) {
        write(bytes: stdoutIsTerminal ? TerminalGuard.filtered(bytes) : bytes)
    }

    /// Writes a remote machine's bytes to stderr, through a `TerminalGuard` when stderr is a terminal.
    static func writeRemoteError(bytes: [UInt8]) {
        writeError(bytes: stderrIsTerminal ? TerminalGuard.filtered(bytes) : bytes)
    }

    /// Writes `text` to stderr; a closed stderr is ignored (there is nobody left to tell).
    static func writeError(_ text: String) {
        var text = text
        text.withUTF8 { _ = writeAll(STDERR_FILENO, UnsafeRawBufferPointer($0)) }
    }

    /// Writes `bytes` to stderr as they are; a closed stderr is ignored.
    static func writeError(bytes: [UInt8]) {
        bytes.withUnsafeBytes { _ = writeAll(STDERR_FILENO, $0) }
    }
}
