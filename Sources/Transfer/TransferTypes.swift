import SSH

/// Which way a transfer goes: upload is this machine → the server.
public enum TransferDirection: Sendable, Equatable { case upload, download }

/// What `essh cp` and the Files screen ask of a transfer.
public struct TransferOptions: Sendable, Equatable {
    /// -r: folders and everything in them.
    public var recursive = false
    /// -p: modes and times (whole seconds, SFTP v3).
    public var preserve = false
    /// --resume: continue a partial after `ResumeDecision` says it is a prefix.
    public var resume = false
    /// --checksum: sha256 on both ends (server: sha256sum / shasum -a 256).
    public var checksum = false
    /// Files at a time (SFTP lanes on one session), 1...8.
    public var parallel = 4
    /// --limit: bytes per second for the whole transfer.
    public var limit: Int64? = nil
    /// A cancel keeps the partial (for --resume); false removes it (the Files screen's Esc).
    public var keepPartialOnCancel = true
    public init() {}
}

/// What a name is.
public enum FileKind: Sendable, Equatable { case regular, directory, symlink, fifo, socket, device, other }

/// A file's type, size, permission bits and times.
public struct FileInfo: Sendable, Equatable {
    public var kind: FileKind
    public var size: Int64
    /// Permission bits (0o7777).
    public var mode: UInt32
    /// Seconds since 1970.
    public var modified: Int64
    public var accessed: Int64

    public init(kind: FileKind, size: Int64, mode: UInt32, modified: Int64, accessed: Int64) {
        self.kind = kind
        self.size = size
        self.mode = mode
        self.modified = modified
        self.accessed = accessed
    }

    /// The kind of an `st_mode`.
    public static func kind(ofMode mode: UInt32) -> FileKind {
        switch mode & 0o170000 {
        case 0o100000: return .regular
        case 0o040000: return .directory
        case 0o120000: return .symlink
        case 0o010000: return .fifo
        case 0o140000: return .socket
        case 0o020000, 0o060000: return .device
        default: return .other
        }
    }

    /// The words for a kind that is not copied ("a FIFO").
    var kindWords: String {
        switch kind {
        case .regular: return "a file"
        case .directory: return "a folder"
        case .symlink: return "a symbolic link"
        case .fifo: return "a FIFO"
        case .socket: return "a socket"
        case .device: return "a device"
        case .other: return "not a plain file"
        }
    }
}

/// One row of a listing.
public struct FileEntry: Sendable, Equatable {
    public var name: [UInt8]
    public var info: FileInfo
    /// Remote: from the longname (ls -l); local: getpwuid; else the uid.
    public var owner: String
    /// For symlinks, when known.
    public var linkTarget: [UInt8]?

    public init(name: [UInt8], info: FileInfo, owner: String, linkTarget: [UInt8]? = nil) {
        self.name = name
        self.info = info
        self.owner = owner
        self.linkTarget = linkTarget
    }
}

/// Every failure of the Transfer module, as a whole sentence naming the server and path.
public struct TransferError: Error, Sendable, Equatable {
    public enum Kind: Sendable, Equatable { case usage, badInput, connection, remoteFile, localFile, cancelled }
    public var kind: Kind
    /// A whole sentence: what was wrong and what to do.
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public init(kind: Kind, message: String) {
        self.init(kind, message)
    }

    /// The error is about one file or folder (refused, missing, unreadable): that one fails and the copy goes on.
    /// A lost connection, a cancel or a command-line problem stops the whole copy.
    public var concernsOneFile: Bool { kind == .remoteFile || kind == .localFile }

    /// An SSH module error as the module's: an SFTP status is `remoteFile`, a cancel `cancelled`, else `connection`.
    init(_ error: SSHError) {
        switch error.kind {
        case .remoteFile: self.init(.remoteFile, error.message)
        case .cancelled: self.init(.cancelled, "The copy was cancelled.")
        default: self.init(.connection, error.message)
        }
    }
}

/// One copy: sources on the sending side, a destination on the receiving side.
public struct TransferRequest: Sendable, Equatable {
    public var direction: TransferDirection
    /// On the sending side (local paths for upload, remote for download).
    public var sources: [[UInt8]]
    /// On the receiving side; an empty remote path is the login folder.
    public var destination: [UInt8]
    public var options: TransferOptions

    public init(direction: TransferDirection, sources: [[UInt8]], destination: [UInt8], options: TransferOptions) {
        self.direction = direction
        self.sources = sources
        self.destination = destination
        self.options = options
    }
}

/// Where a transfer is, at most ten times a second.
public struct TransferProgress: Sendable, Equatable {
    /// The destination path being written.
    public var file: [UInt8]
    public var fileDone: Int64
    public var fileSize: Int64
    public var totalDone: Int64
    public var totalBytes: Int64
    public var filesDone: Int
    public var filesTotal: Int
    /// Over the last few seconds.
    public var bytesPerSecond: Double
    /// Nil until a rate is known.
    public var secondsLeft: Double?

    public init(file: [UInt8], fileDone: Int64, fileSize: Int64, totalDone: Int64, totalBytes: Int64, filesDone: Int,
                filesTotal: Int, bytesPerSecond: Double, secondsLeft: Double?) {
        self.file = file
        self.fileDone = fileDone
        self.fileSize = fileSize
        self.totalDone = totalDone
        self.totalBytes = totalBytes
        self.filesDone = filesDone
        self.filesTotal = filesTotal
        self.bytesPerSecond = bytesPerSecond
        self.secondsLeft = secondsLeft
    }
}

/// What --checksum found.
public enum ChecksumResult: Sendable, Equatable {
    case matched(sha256: String)
    case differ(local: String, remote: String)
    /// "no sha256sum or shasum on web1".
    case unavailable(reason: String)
}

/// How one file (or folder, or link) of a transfer ended.
public struct FileOutcome: Sendable, Equatable {
    public enum Status: Sendable, Equatable {
        /// Written and renamed into place.
        case copied
        /// --resume found the whole file (checks and rename only).
        case alreadyComplete
        /// -r trees.
        case directoryMade, linkMade
        /// Not a regular file (FIFO, socket, device), a folder without -r, …
        case skipped(reason: String)
        /// Permission denied, no space left on X (N bytes free), vanished, …
        case failed(reason: String)
    }
    public var source: [UInt8]
    public var destination: [UInt8]
    public var size: Int64
    /// This run (less than size after a resume).
    public var bytesSent: Int64
    public var status: Status
    /// --resume appended from this byte.
    public var resumedFrom: Int64?
    /// --resume could not append: why ("differs at byte 1,048,577").
    public var restartReason: String?
    /// --resume kept a prefix: how it was proven equal to the source.
    public var resumeProof: ResumeProof?
    public var checksum: ChecksumResult?
    public var seconds: Double
    /// False when the server has no posix-rename: an existing destination was removed, then the copy renamed into
    /// place (a reader could see no file between the two).
    public var replacedAtomically = true

    public init(source: [UInt8], destination: [UInt8], size: Int64, bytesSent: Int64, status: Status,
                resumedFrom: Int64? = nil, restartReason: String? = nil, checksum: ChecksumResult? = nil,
                seconds: Double = 0) {
        self.source = source
        self.destination = destination
        self.size = size
        self.bytesSent = bytesSent
        self.status = status
        self.resumedFrom = resumedFrom
        self.restartReason = restartReason
        self.checksum = checksum
        self.seconds = seconds
    }

    /// Copied, already complete, or made.
    public var arrived: Bool {
        switch status {
        case .copied, .alreadyComplete, .directoryMade, .linkMade:
            if case .differ = checksum { return false }
            return true
        case .skipped, .failed: return false
        }
    }
}

/// What a running transfer reports.
public enum TransferEvent: Sendable, Equatable {
    case planned(files: Int, bytes: Int64)
    case fileStarted(source: [UInt8], destination: [UInt8], size: Int64, resumingFrom: Int64)
    /// At most 10 times a second.
    case progress(TransferProgress)
    case fileFinished(FileOutcome)
}

/// How a transfer ended.
public struct TransferSummary: Sendable, Equatable {
    public var outcomes: [FileOutcome]
    /// The whole transfer stopped (scp rule refused, connection lost, cancelled).
    public var problem: TransferError?

    public init(outcomes: [FileOutcome], problem: TransferError?) {
        self.outcomes = outcomes
        self.problem = problem
    }

    /// No problem and every outcome copied / alreadyComplete / made (and no checksum differs).
    public var allArrived: Bool { problem == nil && outcomes.allSatisfy(\.arrived) }
    public var bytesSent: Int64 { outcomes.reduce(0) { $0 + $1.bytesSent } }
}
