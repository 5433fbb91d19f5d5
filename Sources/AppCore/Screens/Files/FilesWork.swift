import Operations

/// The files worker's jobs (`Work.files`). Every job names the Files screen's `session` (one per opening of the
/// screen), so what a closed screen's connection still posts is dropped. Paths are bytes, as the file systems have
/// them.
package enum FilesWork: Sendable, Equatable {
    /// Logs in to `server` on a session of the worker's own (the profile's jumps included) and lists the local
    /// pane's folder (`localStart`, else the current folder) and the server's (`remoteStart`).
    case open(session: Int, server: ConnectionProfile, knownHosts: String, remoteStart: RemoteStart,
              localStart: [UInt8]?)
    /// Lists `path` on `side`; `select` is the name to select in it (the folder just left).
    case list(session: Int, FilesSide, path: [UInt8], select: [UInt8]?)
    case operate(session: Int, FilesSide, FilesOperation)
    /// Reads at most `limit` bytes of the start of a file, for the pager (F3).
    case view(session: Int, FilesSide, path: [UInt8], limit: Int)
    /// Copies between the panes (one transfer at a time; the screen queues the rest).
    case transfer(session: Int, id: Int, FilesTransferRequest)
    /// Stops transfer `id` keeping its partial file, for a resume later (`p`).
    case pause(session: Int, id: Int)
    /// Stops transfer `id`, removing its partial file (Esc): no half file is left.
    case cancel(session: Int, id: Int)
    /// Sends local files to several servers at once (a `FleetCopy` run, a row per server).
    case copyToServers(session: Int, id: Int, servers: [ConnectionProfile], sources: [[UInt8]],
                       destination: [UInt8], knownHosts: String, parallel: Int)
    /// Leaves the server (the screen closed).
    case close(session: Int)

    /// Where the server's pane starts.
    package enum RemoteStart: Sendable, Equatable {
        /// The login folder.
        case home
        /// The session's working folder after its last command (`cd`), else the login folder.
        case sessionFolder
    }
}

/// A change to files on one side (F6, F7, F8, chmod).
package enum FilesOperation: Sendable, Equatable {
    case makeDirectory([UInt8])
    case rename(from: [UInt8], to: [UInt8])
    /// Deletes these paths, folders with what is in them.
    case remove([[UInt8]])
    case changeMode([[UInt8]], to: UInt32)
}

/// One copy from one pane to the other.
package struct FilesTransferRequest: Sendable, Equatable {
    /// The side the files come from: `.local` sends them to the server.
    package var from: FilesSide
    package var sources: [[UInt8]]
    /// The folder they go into, on the other side.
    package var destination: [UInt8]
    /// Continue partial files a pause left (checked to be a prefix first).
    package var resume: Bool
    /// The name the one source is written under in `destination` instead of its own (F5's rename when its name is
    /// taken there): nil, its own.
    package var newName: [UInt8]?

    package init(from: FilesSide, sources: [[UInt8]], destination: [UInt8], resume: Bool, newName: [UInt8]? = nil) {
        self.from = from
        self.sources = sources
        self.destination = destination
        self.resume = resume
        self.newName = newName
    }

    /// The path the engine is given: the folder, or the new name in it.
    package var target: [UInt8] { newName.map { FilePath.join(destination, $0) } ?? destination }
}
