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

    /// The longest file name this machine's file systems take (NAME_MAX).
    public static let nameLimit = 255

    /// Why `name` (as a server listed it) is not one path component, or nil when it is one: every name that arrives
    /// from a server is data, never a path — empty, `.`, `..`, a `/` or a NUL byte, or longer than `nameLimit`
    /// bytes is refused wherever a listing is used (a copy's walk, the Files screen).
    public static func componentProblem(_ name: [UInt8]) -> String? {
        if name.isEmpty { return "an empty name" }
        if name == [0x2E] || name == [0x2E, 0x2E] { return "“\(shown(name))”, which names a folder, not an entry" }
        if name.contains(slash) { return "“\(shown(name))”, which holds a “/”" }
        if name.contains(0) { return "“\(shown(name))”, which holds a NUL byte" }
        if name.count > nameLimit { return "a name of \(name.count) bytes (the limit here is \(nameLimit))" }
        return nil
    }
}
