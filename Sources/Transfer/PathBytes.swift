import SSH

/// Byte-path helpers: paths are `[UInt8]` throughout (non-UTF-8 names, `\n`, a leading `-`).
public enum PathBytes {
    static let slash = UInt8(ascii: "/")

    /// `directory/name`; an empty directory is the current (or login) folder.
    public static func join(_ directory: [UInt8], _ name: [UInt8]) -> [UInt8] {
        if directory.isEmpty { return name }
        if directory.last == slash { return directory + name }
        return directory + [slash] + name
    }

    /// The last component, without trailing slashes (`a/b/` → `b`; `/` → `/`).
    public static func baseName(_ path: [UInt8]) -> [UInt8] {
        var p = path
        while p.count > 1 && p.last == slash { p.removeLast() }
        guard let i = p.lastIndex(of: slash), p.count > 1 else { return p }
        return Array(p[(i + 1)...])
    }

    /// The folder part (`a/b` → `a`, `b` → empty, `/b` → `/`).
    public static func directoryName(_ path: [UInt8]) -> [UInt8] {
        var p = path
        while p.count > 1 && p.last == slash { p.removeLast() }
        guard let i = p.lastIndex(of: slash) else { return [] }
        return i == 0 ? [slash] : Array(p[..<i])
    }

    /// The path in a sentence (invalid UTF-8 as `\xNN`, newlines as `\n`).
    public static func shown(_ path: [UInt8]) -> String { PathText.shown(path) }
}
