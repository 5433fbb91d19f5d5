import Foundation
import LocalProcess
import TextWidth

/// `essh: MESSAGE` on stderr: how both front ends say what went wrong outside the full-screen interface.
public enum ErrorLine {
    /// Writes `essh: message` and a newline to stderr.
    public static func print(_ message: String) {
        // Straight to the descriptor: FileHandle's write stops the program when stderr is closed.
        // The message may quote what a person typed (a DEST), a file held or a server sent: shown, never obeyed.
        var line = "essh: \(TextSanitizer.sanitize(message, policy: .visible))\n"
        line.withUTF8 { _ = writeAll(STDERR_FILENO, UnsafeRawBufferPointer($0)) }
    }
}
