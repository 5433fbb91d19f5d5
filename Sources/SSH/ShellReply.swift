/// What one prompt of the persistent shell said: the status of the line it ran, the shell's PID and its working
/// folder (`ShellScript.prompt`).
struct ShellReply: Sendable, Equatable {
    /// `$?` after the command (nil when the prompt's text could not be read).
    var status: Int32?
    var pid: Int?
    /// `$PWD`, as text (bytes that are not UTF-8 become U+FFFD).
    var directory: String?

    /// Reads `STATUS PID CWD` (the directory may hold spaces and newlines: it runs to the end).
    init(_ text: [UInt8]) {
        let parts = text.split(separator: UInt8(ascii: " "), maxSplits: 2, omittingEmptySubsequences: false)
        status = parts.count > 0 ? Int32(String(decoding: parts[0], as: UTF8.self)) : nil
        pid = parts.count > 1 ? Int(String(decoding: parts[1], as: UTF8.self)) : nil
        directory = parts.count > 2 ? String(decoding: parts[2], as: UTF8.self) : nil
    }
}

/// Watches both streams for one prompt's markers (one nonce): the output before them is the command's, passed on
/// as it comes; the prompt's text is kept; what follows the markers (a background job's late output) is kept for the
/// next command. Pure: no I/O.
struct ReplyScanner {
    let nonce: String
    private var stdout: MarkerScanner
    private var stderr: MarkerScanner
    private var directoryEnd: MarkerScanner
    private var text: [UInt8] = []
    /// The prompt's text is kept up to this many bytes (a working folder is at most PATH_MAX, 4096 on Linux).
    static let textLimit = 16 * 1024

    init(nonce: String) {
        self.nonce = nonce
        stdout = MarkerScanner(ShellScript.stdoutMarker(nonce))
        stderr = MarkerScanner(ShellScript.stderrMarker(nonce))
        directoryEnd = MarkerScanner(ShellScript.directoryEnd(nonce))
    }

    /// Both streams have reached the markers and the prompt's text is complete.
    var isComplete: Bool { stderr.found && directoryEnd.found }

    /// The prompt's values, once complete.
    var reply: ShellReply? { isComplete ? ShellReply(text) : nil }

    /// Feeds a chunk of `stream`; `emit` gets the command's output in it.
    mutating func feed(_ stream: OutputStream, _ chunk: UnsafeRawBufferPointer,
                       emit: (UnsafeRawBufferPointer) -> Void) {
        switch stream {
        case .stderr:
            stderr.feed(chunk, emit: emit)
        case .stdout where !stdout.found:
            stdout.feed(chunk, emit: emit)
            if stdout.found { feedText(stdout.takeAfter()) }
        case .stdout:
            feedText(Array(chunk))
        }
    }

    /// Convenience for byte arrays.
    mutating func feed(_ stream: OutputStream, _ bytes: [UInt8], emit: (UnsafeRawBufferPointer) -> Void) {
        bytes.withUnsafeBytes { feed(stream, $0, emit: emit) }
    }

    /// A stream ended before its marker: what was held back as a possible marker start is output after all.
    mutating func flush(emit: (OutputStream, UnsafeRawBufferPointer) -> Void) {
        stdout.flush { emit(.stdout, $0) }
        stderr.flush { emit(.stderr, $0) }
    }

    /// What arrived after the markers, per stream (for the next command's output), leaving none.
    mutating func takeLate() -> (stdout: [UInt8], stderr: [UInt8]) {
        (directoryEnd.takeAfter(), stderr.takeAfter())
    }

    /// Stdout after the first marker: the prompt's text up to the second, then late output (kept by `directoryEnd`).
    private mutating func feedText(_ bytes: [UInt8]) {
        var text = self.text
        directoryEnd.feed(bytes) { piece in text += piece.prefix(max(0, Self.textLimit - text.count)) }
        self.text = text
    }
}
