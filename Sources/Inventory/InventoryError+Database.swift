import Basics
import GRDB

// Kept apart from InventoryError.swift so the error type, like the ssh_config reader that throws it, compiles
// without GRDB (`make fuzz` builds the reader's files on their own).
extension InventoryError {
    /// Maps any error thrown while using the database at `path` to an InventoryError (the one choke point).
    static func wrap(_ error: any Error, path: String) -> InventoryError {
        if let error = error as? InventoryError { return error }
        guard let dbError = error as? DatabaseError else {
            let sentence = UserFacing.error(error)
            return InventoryError(.io, sentence.detail, "Could not use the database \(path): \(sentence.message)")
        }
        let detail = dbError.message ?? "\(dbError)"
        switch dbError.resultCode {
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            return InventoryError(.locked, detail, """
                The database \(path) is locked by another program (another eSSH still writing?). \
                Wait for it to finish and try again.
                """)
        case .SQLITE_NOTADB, .SQLITE_CORRUPT:
            return corrupt(path: path, detail: detail)
        case .SQLITE_READONLY:
            return readOnly(path: path, detail: detail)
        case .SQLITE_CANTOPEN, .SQLITE_IOERR, .SQLITE_FULL, .SQLITE_PERM:
            return InventoryError(.io, detail, """
                Could not read or write the database \(path) (\(detail)): check that its folder exists, is writable \
                and the disk is not full.
                """)
        default:
            return InventoryError(.sqlite, detail, "The database \(path) reported an error: \(detail).")
        }
    }
}
