import Basics

/// A command eSSH runs on a server to list interfaces, routes or sockets, and how to read its output.
/// `QuickCommand.plan(for:kind:)` gives them in fallback order: run the first; when the shell says the command
/// is missing (exit 127 or "not found"), run the next.
public struct QuickCommand: Sendable, Equatable {
    /// The command line, as typed into the remote shell.
    public var commandLine: String
    /// The `--format` family that reads its output.
    public var family: FormatFamily
    /// The layout its output is in.
    public var format: InputFormat

    /// A command with its reader.
    public init(_ commandLine: String, family: FormatFamily, format: InputFormat) {
        self.commandLine = commandLine
        self.family = family
        self.format = format
    }

    /// The commands for one OS and kind, best first; none for `auto` (detect the system first).
    public static func plan(for os: ServerOS, kind: DataKind) -> [QuickCommand] {
        switch (os, kind) {
        case (.auto, _):
            return []
        case (.linux, .interfaces):
            return [QuickCommand("ip -j addr", family: .ip, format: .ipAddrJSON),
                    QuickCommand("ip addr", family: .ip, format: .ipAddr),
                    QuickCommand("ifconfig -a", family: .ifconfig, format: .ifconfigLinux),
                    QuickCommand("/sbin/ifconfig -a", family: .ifconfig, format: .ifconfigLinux)]
        case (.linux, .routes):
            return [QuickCommand("ip route show table main; ip -6 route show table main", family: .ip,
                                 format: .ipRoute),
                    QuickCommand("route -n", family: .route, format: .routeLinux),
                    QuickCommand("netstat -rn", family: .netstat, format: .netstatRoutesLinux)]
        case (.linux, .sockets):
            return [QuickCommand("ss -tunap", family: .ss, format: .ss),
                    QuickCommand("ss -tuna", family: .ss, format: .ss),
                    QuickCommand("netstat -tunap", family: .netstat, format: .netstatLinux),
                    QuickCommand("netstat -tuna", family: .netstat, format: .netstatLinux)]
        case (.bsd, .interfaces), (.macos, .interfaces):
            return [QuickCommand("ifconfig -a", family: .ifconfig, format: .ifconfigBSD)]
        case (.bsd, .routes), (.macos, .routes):
            return [QuickCommand("netstat -rn", family: .netstat, format: .netstatRoutesBSD)]
        case (.bsd, .sockets), (.macos, .sockets):
            return [QuickCommand("netstat -an", family: .netstat, format: .netstatBSD)]
        case (.windows, .interfaces):
            return [QuickCommand("ipconfig /all", family: .ipconfig, format: .ipconfig)]
        case (.windows, .routes):
            return [QuickCommand("route print", family: .route, format: .routePrint)]
        case (.windows, .sockets):
            return [QuickCommand("netstat -ano", family: .netstat, format: .netstatWindows),
                    QuickCommand("netstat -an", family: .netstat, format: .netstatWindows)]
        }
    }

    /// Whether a run's result means "this command does not exist here" and the next one should be tried.
    public static func isMissingCommand(exitStatus: Int32, stderr: String) -> Bool {
        if exitStatus == 127 { return true }
        guard exitStatus != 0 else { return false }
        let text = stderr.lowercased()
        return text.contains("not found") || text.contains("not recognized as an internal or external command")
            || text.contains("no such file or directory")
    }
}
