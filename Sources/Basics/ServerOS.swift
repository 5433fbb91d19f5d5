/// A server's operating system, the one type for it: stored in the inventory (`server.os`, these raw values), given
/// on the command line (`--os`), detected by the quick commands (`ServerOS.detect` in NetParsers) and the key of
/// their command plans. `auto` means not known yet: the next connection detects it; it is never a detection's answer.
public enum ServerOS: String, Codable, Sendable, CaseIterable {
    /// Not known yet: detect it on the next connection.
    case auto
    /// Linux (any distribution).
    case linux
    /// macOS (`uname -s` says Darwin).
    case macos
    /// FreeBSD and the BSDs close enough to it for ifconfig and netstat (OpenBSD, NetBSD, DragonFly).
    case bsd
    /// Windows (through cmd or PowerShell).
    case windows

    /// The systems a server can be found to run: every case but `auto`.
    public static let detectable: [ServerOS] = allCases.filter { $0 != .auto }
}
