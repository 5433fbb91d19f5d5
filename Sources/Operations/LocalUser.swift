import Foundation

/// The person running eSSH, as the login name a connection uses when none is given (OpenSSH's rule).
public enum LocalUser {
    /// The login name of this process's user: the password database first, then $USER, then "root".
    public static var name: String {
        if let pw = getpwuid(getuid()), let name = pw.pointee.pw_name { return String(cString: name) }
        return ProcessInfo.processInfo.environment["USER"] ?? "root"
    }

    /// The home folder: $HOME, else the password database's.
    public static func home(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let home = environment["HOME"], !home.isEmpty { return home }
        return NSHomeDirectory()
    }
}
