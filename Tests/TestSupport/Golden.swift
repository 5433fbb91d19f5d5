import Foundation

/// Golden files: a rendered screen (lines of text) compared with a reviewed file under a test target's
/// `Golden/` folder. With `ESSH_UPDATE_GOLDEN=1` the file is rewritten instead, so a change shows up in the diff.
public enum Golden {
    /// A screen that differs from its golden file.
    public struct Mismatch: Error, CustomStringConvertible {
        /// What differs and how to accept the change.
        public let description: String
    }

    /// The `Golden` folder beside the test file at `filePath` (pass `#filePath`).
    public static func directory(besides filePath: String) -> String {
        URL(fileURLWithPath: filePath).deletingLastPathComponent().appendingPathComponent("Golden").path
    }

    /// Compares `lines` with `directory/name.txt`; throws `Mismatch` naming the first differing line.
    public static func check(_ lines: [String], named name: String, in directory: String) throws {
        let path = directory + "/" + name + ".txt"
        let text = lines.joined(separator: "\n") + "\n"
        if ProcessInfo.processInfo.environment["ESSH_UPDATE_GOLDEN"] == "1" {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            return
        }
        guard let expected = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw Mismatch(description: "No golden file \(path). Run the test with ESSH_UPDATE_GOLDEN=1 to create "
                + "it, then review it in the diff.")
        }
        guard expected != text else { return }
        let want = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let got = text.split(separator: "\n", omittingEmptySubsequences: false)
        let line = zip(want, got).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            ?? min(want.count, got.count)
        let wantLine = line < want.count ? String(want[line]) : "(no line)"
        let gotLine = line < got.count ? String(got[line]) : "(no line)"
        throw Mismatch(description: """
            Screen differs from \(path) at line \(line + 1):
              expected: \(wantLine)
              actual:   \(gotLine)
            If the change is intended, rerun with ESSH_UPDATE_GOLDEN=1 and review the diff.
            """)
    }
}
