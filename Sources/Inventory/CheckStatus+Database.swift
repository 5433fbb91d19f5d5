import Basics
import GRDB

/// A check status is stored as its raw value (`online`, `not-ssh`, …) in `checkResult.status`.
extension CheckStatus: DatabaseValueConvertible {
    /// What a stored word this eSSH does not know reads as: a newer eSSH's status, or a value another program wrote.
    /// Such a row is neither refused (one odd row must not make the server list unreadable) nor mistaken for good
    /// news: it reads as not online, the conservative answer. Results are only ever inserted and pruned, never
    /// rewritten, so the stored word stays as it was for the eSSH that wrote it.
    public static let unknownStoredWord = CheckStatus.unreachable

    /// The status a stored value names; a word this version does not know (or a value that is not text) reads as
    /// `unknownStoredWord`, never as a decoding failure. NULL is nil.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> CheckStatus? {
        if dbValue.isNull { return nil }
        return String.fromDatabaseValue(dbValue).flatMap(CheckStatus.init(rawValue:)) ?? unknownStoredWord
    }
}
