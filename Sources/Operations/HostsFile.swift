import Basics
import Foundation

/// A hosts file as pssh reads one (`-h FILE`): one server a line — a saved name or `[user@]host[:port]` — with
/// blank lines and `#` comments (a whole line, or after the host) ignored. Each line is taken as written, never as a
/// pattern or a tag, so a file of addresses means exactly those addresses.
public enum HostsFile {
    /// The selectors of the file's text (`file` names it in problems): one literal name a line.
    public static func selectors(_ text: String, file: String) throws(SelectionProblem) -> [ServerSelector] {
        var selectors: [ServerSelector] = []
        var number = 0
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            number += 1
            var content = Substring(line)
            if let hash = content.firstIndex(where: { $0 == "#" }),
               hash == content.startIndex || content[content.index(before: hash)].isWhitespace {
                content = content[..<hash]
            }
            let words = content.split(whereSeparator: \.isWhitespace)
            if words.isEmpty { continue }
            let shown = HostAddress.shown(content.trimmingCharacters(in: .whitespaces))
            guard words.count == 1 else {
                throw SelectionProblem(.hostsFile, """
                    \(file):\(number): “\(shown)” is more than one word; write one host a line, \
                    as [user@]host[:port] or a saved name.
                    """)
            }
            let word = String(words[0])
            if word.unicodeScalars.contains(where: HostAddress.isControl) {
                throw SelectionProblem(.hostsFile, "\(file):\(number): “\(shown)” holds a control character.")
            }
            selectors.append(.name(NamePattern(literal: word)))
        }
        if selectors.isEmpty {
            throw SelectionProblem(.hostsFile,
                                   "\(file) names no host: write one [user@]host[:port] or saved name a line.")
        }
        return selectors
    }
}
