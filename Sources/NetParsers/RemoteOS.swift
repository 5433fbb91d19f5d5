/// The operating system of a server, as far as the quick commands care.
public enum RemoteOS: String, Sendable, CaseIterable, Codable {
    /// Linux (any distribution).
    case linux
    /// FreeBSD (and the BSDs close enough to it for ifconfig and netstat).
    case freebsd
    /// macOS (`uname -s` says Darwin).
    case macos
    /// Windows (through cmd or PowerShell).
    case windows

    /// The command that tells the OS, for servers with a POSIX shell.
    public static let probeCommand = "uname -s"
    /// The command that tells a Windows server (cmd and PowerShell both run it).
    public static let windowsProbeCommand = "ver"

    /// Reads the output of `uname -s` or `ver`; nil when it names no known system.
    public static func detect(fromProbeOutput output: String) -> RemoteOS? {
        let text = output.lowercased()
        for line in text.split(whereSeparator: \.isNewline) {
            let word = line.drop { $0 == " " || $0 == "\t" }
            if word.isEmpty { continue }
            if word.hasPrefix("linux") { return .linux }
            if word.hasPrefix("freebsd") || word.hasPrefix("openbsd") || word.hasPrefix("netbsd")
                || word.hasPrefix("dragonfly") {
                return .freebsd
            }
            if word.hasPrefix("darwin") { return .macos }
            if word.contains("microsoft windows") || word.hasPrefix("windows") || word.hasPrefix("mingw")
                || word.hasPrefix("msys") || word.hasPrefix("cygwin") {
                return .windows
            }
        }
        return nil
    }
}
