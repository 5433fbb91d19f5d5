import Foundation

/// Who is sending from this machine: the default From address is `user@hostname`, as `mail` does.
public enum LocalIdentity {
    /// The login name of the running user.
    public static var user: String {
        if let pw = getpwuid(getuid()), let name = pw.pointee.pw_name { return String(cString: name) }
        return ProcessInfo.processInfo.environment["USER"] ?? "root"
    }

    /// This machine's host name (`localhost` when it has none).
    public static var hostname: String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "localhost" }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.isEmpty ? "localhost" : name
    }

    /// `user@hostname`.
    public static var defaultFrom: String { "\(user)@\(hostname)" }
}
