import Basics
import GRDB

/// A server's OS is stored as its raw value (`auto`, `linux`, `macos`, `bsd`, `windows`) in `server.os`.
extension ServerOS: DatabaseValueConvertible {
    /// The system a stored value names; any other word (a newer eSSH's, or another program's) reads as `auto`, so the
    /// next connection detects the system again instead of choosing commands for a system it cannot name. NULL is
    /// nil.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> ServerOS? {
        if dbValue.isNull { return nil }
        return String.fromDatabaseValue(dbValue).flatMap(ServerOS.init(rawValue:)) ?? .auto
    }
}
