import Basics

extension ServerOS {
    /// The command that tells the OS, for servers with a POSIX shell.
    public static let probeCommand = "uname -s"
    /// The command that tells a Windows server (cmd and PowerShell both run it).
    public static let windowsProbeCommand = "ver"

    /// Reads the output of `uname -s` or `ver`; nil when it names no known system (never `auto`).
    public static func detect(fromProbeOutput output: String) -> ServerOS? {
        let text = output.lowercased()
        for line in text.split(whereSeparator: \.isNewline) {
            let word = line.drop { $0 == " " || $0 == "\t" }
            if word.isEmpty { continue }
            if word.hasPrefix("linux") { return .linux }
            if word.hasPrefix("freebsd") || word.hasPrefix("openbsd") || word.hasPrefix("netbsd")
                || word.hasPrefix("dragonfly") {
                return .bsd
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
