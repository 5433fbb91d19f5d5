import Foundation
import TUIKit

/// One entry of a Files pane's listing, as the files worker read it (local or over SFTP). The name is bytes as the
/// file system has it: it may hold a newline, an escape sequence or bytes that are no UTF-8, so it is only ever
/// shown through `TextSanitizer` (`displayName`) and sent back to the worker unchanged.
package struct FileRow: Sendable, Equatable {
    package enum Kind: Sendable, Equatable { case file, directory, symlink, other }

    package var name: [UInt8]
    package var kind: Kind
    package var size: Int64
    /// Permission bits (`0o7777`).
    package var mode: UInt32
    /// The owner's name (or uid), as the worker found it.
    package var owner: String
    /// Seconds since 1970.
    package var modified: Int64
    /// For a symlink: whether it leads to a folder (Enter opens it).
    package var linksToDirectory: Bool

    package init(name: [UInt8], kind: Kind, size: Int64, mode: UInt32, owner: String, modified: Int64,
                 linksToDirectory: Bool = false) {
        self.name = name
        self.kind = kind
        self.size = size
        self.mode = mode
        self.owner = owner
        self.modified = modified
        self.linksToDirectory = linksToDirectory
    }

    /// Whether Enter opens it as a folder.
    var opens: Bool { kind == .directory || (kind == .symlink && linksToDirectory) }

    /// The name for a cell or a sentence: sanitised, on one line (a `\n` shows as `␊`, bad UTF-8 as `�`).
    var displayName: String { FileRow.display(name) }

    /// Any path or name bytes as one safe line.
    static func display(_ bytes: [UInt8]) -> String { TextSanitizer.line(String(decoding: bytes, as: UTF8.self)) }

    /// `drwxr-xr-x` as `ls -l` writes it (setuid, setgid and sticky included).
    var modeText: String {
        let type: Character
        switch kind {
        case .directory: type = "d"
        case .symlink: type = "l"
        case .file: type = "-"
        case .other: type = "?"
        }
        var text = String(type)
        let bits: [(UInt32, Character)] = [(0o400, "r"), (0o200, "w"), (0o100, "x"), (0o040, "r"), (0o020, "w"),
                                           (0o010, "x"), (0o004, "r"), (0o002, "w"), (0o001, "x")]
        for (index, (bit, letter)) in bits.enumerated() {
            var c: Character = mode & bit != 0 ? letter : "-"
            if index == 2, mode & 0o4000 != 0 { c = c == "x" ? "s" : "S" }
            if index == 5, mode & 0o2000 != 0 { c = c == "x" ? "s" : "S" }
            if index == 8, mode & 0o1000 != 0 { c = c == "x" ? "t" : "T" }
            text.append(c)
        }
        return text
    }
}

/// Paths as bytes: joining a name to a folder, a folder's parent, the last part of a path (the screen and its
/// worker alike).
package enum FilePath {
    static let slash = UInt8(ascii: "/")

    package static func join(_ directory: [UInt8], _ name: [UInt8]) -> [UInt8] {
        if directory.isEmpty { return name }
        return directory.last == slash ? directory + name : directory + [slash] + name
    }

    /// The folder above `path` (`/` stays `/`); nil for a relative path of one part.
    package static func parent(_ path: [UInt8]) -> [UInt8]? {
        var trimmed = path
        while trimmed.count > 1 && trimmed.last == slash { trimmed.removeLast() }
        guard let cut = trimmed.lastIndex(of: slash) else { return nil }
        return cut == 0 ? [slash] : Array(trimmed[..<cut])
    }

    /// The last part of `path` (`/srv/app/` → `app`).
    package static func lastPart(_ path: [UInt8]) -> [UInt8] {
        var trimmed = path
        while trimmed.count > 1 && trimmed.last == slash { trimmed.removeLast() }
        guard let cut = trimmed.lastIndex(of: slash) else { return trimmed }
        return Array(trimmed[(cut + 1)...])
    }
}
