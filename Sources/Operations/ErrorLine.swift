import Foundation

/// `essh: MESSAGE` on stderr: how both front ends say what went wrong outside the full-screen interface.
public enum ErrorLine {
    /// Writes `essh: message` and a newline to stderr.
    public static func print(_ message: String) {
        FileHandle.standardError.write(Data("essh: \(message)\n".utf8))
    }
}
