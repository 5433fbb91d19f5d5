import Transfer

/// What the files worker says (`Message.files`), each about the Files screen's `session`.
package enum FilesEvent: Sendable, Equatable {
    /// Logged in to the server (`host` as the title shows it).
    case connected(session: Int, host: String)
    /// The connection could not be made, or was lost: the server's pane says why.
    case connectionFailed(session: Int, String)
    /// `omitted`: names the listing had that are not one path component (`..`, `a/b`), left out of `entries`.
    case listed(session: Int, FilesSide, path: [UInt8], entries: [FileRow], select: [UInt8]?, omitted: [[UInt8]] = [])
    case listFailed(session: Int, FilesSide, path: [UInt8], String)
    /// An operation worked: `notice` says what happened; the side is listed again (selecting `select`).
    case operated(session: Int, FilesSide, notice: String, select: [UInt8]?)
    case operationFailed(session: Int, FilesSide, String)
    /// The start of a file for the pager; `cut`: bytes left out after the limit (0: all of it).
    case viewed(session: Int, path: [UInt8], bytes: [UInt8], cut: Bool)
    case viewFailed(session: Int, String)
    case transfer(session: Int, id: Int, FilesTransferEvent)
    /// A server of a copy to several servers finished (`index` in the order asked).
    case serverCopied(session: Int, id: Int, index: Int, FilesServerCopy)
}

/// How one transfer goes.
package enum FilesTransferEvent: Sendable, Equatable {
    case planned(files: Int, bytes: Int64)
    /// The engine's figures, at most ten times a second.
    case progress(TransferProgress)
    /// One file is done: nil problem when it arrived.
    case fileFinished(name: [UInt8], problem: String?)
    case finished(FilesTransferEnd)
}

/// How a transfer ended.
package enum FilesTransferEnd: Sendable, Equatable {
    /// Every file arrived.
    case arrived(files: Int, bytes: Int64, seconds: Double)
    /// Some files did not arrive (each was said by `fileFinished`).
    case incomplete(failed: Int, of: Int)
    /// The whole transfer stopped: the connection, a refused destination; the sentence says which.
    case stopped(String)
    /// Esc: stopped, its partial file removed.
    case cancelled
    /// `p`: stopped, its partial file kept for a resume.
    case paused
}

/// One server's result in a copy to several servers.
package struct FilesServerCopy: Sendable, Equatable {
    package var server: String
    /// The fleet status word (`ok`, `failed`, `refused`, `timed-out`, …).
    package var status: String
    /// One line per file (`ok  path`, `failed  path: reason`) or why the server was not reached.
    package var lines: [String]

    package init(server: String, status: String, lines: [String]) {
        self.server = server
        self.status = status
        self.lines = lines
    }
}
