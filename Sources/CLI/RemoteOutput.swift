import Foundation
import LocalProcess
import SSH
import TextWidth

/// A remote command's output on its way to local stdout and stderr (`essh exec`). A stream that is a terminal gets
/// its own `TerminalGuard`: text and colours pass, whatever could act on the terminal (title, clipboard, modes,
/// queries it would answer) is shown instead of obeyed. A pipe or a file gets the bytes as they came, unfiltered.
/// `raw` passes everything unchanged everywhere, as ssh does.
struct RemoteOutput {
    private var stdoutGuard: TerminalGuard?
    private var stderrGuard: TerminalGuard?
    private var shown: [UInt8] = []

    init(raw: Bool) {
        stdoutGuard = raw || !TerminalOutput.stdoutIsTerminal ? nil : TerminalGuard()
        stderrGuard = raw || !TerminalOutput.stderrIsTerminal ? nil : TerminalGuard()
    }

    /// Writes the next chunk of `stream` to the local descriptor of the same name; false when writing failed (errno
    /// says why: EPIPE when the reader went away).
    mutating func write(_ stream: SSH.OutputStream, _ bytes: UnsafeRawBufferPointer) -> Bool {
        shown.removeAll(keepingCapacity: true)
        switch stream {
        case .stdout where stdoutGuard != nil: stdoutGuard!.filter(bytes, into: &shown)
        case .stderr where stderrGuard != nil: stderrGuard!.filter(bytes, into: &shown)
        default: return writeAll(Self.descriptor(stream), bytes)
        }
        return shown.withUnsafeBytes { writeAll(Self.descriptor(stream), $0) }
    }

    /// Writes what the guards still hold (the start of a sequence the output ended in), as it is shown.
    mutating func finish() {
        for stream in [SSH.OutputStream.stdout, .stderr] {
            shown.removeAll(keepingCapacity: true)
            if stream == .stdout { stdoutGuard?.finish(into: &shown) } else { stderrGuard?.finish(into: &shown) }
            _ = shown.withUnsafeBytes { writeAll(Self.descriptor(stream), $0) }
        }
    }

    private static func descriptor(_ stream: SSH.OutputStream) -> Int32 {
        stream == .stdout ? STDOUT_FILENO : STDERR_FILENO
    }
}
