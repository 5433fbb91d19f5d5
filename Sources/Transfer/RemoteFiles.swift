import SSH
import Synchronization

/// One server's files over SFTP (and its exec channel for sha256). Blocking calls; safe from any thread; errors are
/// `TransferError` with a sentence naming server and path.
///
/// The calls here share one SFTP channel (one at a time); `Transfer.run` opens lanes of its own with `openLane`, so a
/// cancelled copy drops only its lanes and this channel keeps serving the Files screen.
public final class RemoteFiles: Sendable {
    public let session: SSHSession
    public let host: String
    /// The most SFTP channels a transfer opens (sshd's MaxSessions is 10 by default); `TransferOptions.parallel`
    /// chooses within it. Lower it to spare a server (a fleet copy to many).
    public let lanes: Int
    let cancel: Cancellation?
    private let main: Mutex<SFTPClient?>

    public init(session: SSHSession, host: String, lanes: Int = 8, cancel: Cancellation? = nil) throws(TransferError) {
        self.session = session
        self.host = host
        self.lanes = min(max(lanes, 1), 8)
        self.cancel = cancel
        do throws(SSHError) {
            main = Mutex(try SFTPClient(session: session, cancel: cancel))
        } catch {
            throw TransferError(error)
        }
    }

    /// A new SFTP channel on the session for one lane of a transfer, woken by `cancel`.
    func openLane(cancel: Cancellation?) throws(TransferError) -> SFTPClient {
        do throws(SSHError) {
            return try SFTPClient(session: session, cancel: cancel)
        } catch {
            throw TransferError(error)
        }
    }

    /// Runs `body` on the shared channel (reopened if a cancel dropped it).
    func withMain<R>(_ body: (SFTPClient) throws(SSHError) -> R) throws(TransferError) -> R {
        do throws(SSHError) {
            return try main.withLock { (client: inout SFTPClient?) throws(SSHError) -> R in
                if client == nil || client?.isOpen == false {
                    client = try SFTPClient(session: session, cancel: cancel)
                }
                return try body(client!)
            }
        } catch {
            throw failure(error)
        }
    }

    /// Runs `body` on a channel of its own that no cancel stops (and that gives up after `timeout` seconds): what a
    /// cancelled copy still has to do on the server — cut a split partial to its proven prefix and give it the name
    /// --resume looks for, or remove it — when every channel of the copy stops at the cancel.
    func afterCancel<R>(timeout: Double = 10, _ body: (SFTPClient) throws(SSHError) -> R) throws(TransferError) -> R {
        do throws(SSHError) {
            let client = try SFTPClient(session: session, cancel: nil, timeout: timeout)
            defer { client.close() }
            return try body(client)
        } catch {
            throw failure(error)
        }
    }

    /// An SSH error as the module's, a file's naming this server as the caller calls it.
    func failure(_ error: SSHError) -> TransferError {
        // SFTPClient names the server by its address; sentences made here name it as the caller does already.
        if error.kind == .remoteFile, let status = error.sftpStatus, let path = error.path,
           !error.situation.hasPrefix("\(host): ") {
            return TransferError(.remoteFile, "\(host): \(PathBytes.shown(path)): \(status.words).")
        }
        return TransferError(error)
    }

    public func close() {
        main.withLock { client in
            client?.close()
            client = nil
        }
    }

    /// realpath(".").
    public func home() throws(TransferError) -> [UInt8] { try realPath(Array(".".utf8)) }

    public func realPath(_ path: [UInt8]) throws(TransferError) -> [UInt8] {
        try withMain { (c: SFTPClient) throws(SSHError) -> [UInt8] in try c.realPath(path.isEmpty ? [0x2E] : path) }
    }

    /// No `.` and `..`; owners from the `ls -l` lines; link targets read for symlinks.
    public func list(_ directory: [UInt8]) throws(TransferError) -> [FileEntry] {
        try withMain { (c: SFTPClient) throws(SSHError) -> [FileEntry] in
            let dir = directory.isEmpty ? [0x2E] : directory
            return try c.list(dir).map { (entry: SFTPDirectoryEntry) throws(SSHError) -> FileEntry in
                let info = Self.info(entry.attributes)
                var target: [UInt8]?
                if info.kind == .symlink {
                    target = try? c.readLink(PathBytes.join(dir, entry.name))
                }
                return FileEntry(name: entry.name, info: info,
                                 owner: Self.owner(longName: entry.longName, uid: entry.attributes.uid),
                                 linkTarget: target)
            }
        }
    }

    /// Nil: nothing there (a dangling link followed is nothing too).
    public func info(_ path: [UInt8], followLinks: Bool = true) throws(TransferError) -> FileInfo? {
        try withMain { (c: SFTPClient) throws(SSHError) -> FileInfo? in
            try Self.info(c, path.isEmpty ? [0x2E] : path, followLinks: followLinks)
        }
    }

    public func readLink(_ path: [UInt8]) throws(TransferError) -> [UInt8] {
        try withMain { (c: SFTPClient) throws(SSHError) -> [UInt8] in try c.readLink(path) }
    }

    public func makeDirectory(_ path: [UInt8], mode: UInt32 = 0o755) throws(TransferError) {
        try withMain { (c: SFTPClient) throws(SSHError) in try c.makeDirectory(path, mode: mode) }
    }

    /// Refuses to replace an existing file.
    public func rename(_ from: [UInt8], to: [UInt8]) throws(TransferError) {
        let host = self.host
        try withMain { (c: SFTPClient) throws(SSHError) in
            if try Self.info(c, to, followLinks: false) != nil {
                throw SSHError(.remoteFile, "exists", "\(host): \(PathBytes.shown(to)) already exists: choose another "
                               + "name or remove it first.", sftpStatus: .alreadyExists, path: to)
            }
            try c.rename(from, to: to)
        }
    }

    /// A file, a link, or (with `recursive`) a folder and everything in it.
    public func remove(_ path: [UInt8], recursive: Bool) throws(TransferError) {
        try withMain { (c: SFTPClient) throws(SSHError) in try Self.remove(c, path, recursive: recursive) }
    }

    public func changeMode(_ path: [UInt8], to mode: UInt32) throws(TransferError) {
        try withMain { (c: SFTPClient) throws(SSHError) in
            try c.setStat(path, SFTPAttributes(permissions: mode & 0o7777))
        }
    }

    /// The first `limit` bytes of a regular file (the F3 pager). Anything else is refused before it is opened:
    /// opening a FIFO over SFTP hangs the channel.
    public func readPrefix(_ path: [UInt8], limit: Int) throws(TransferError) -> [UInt8] {
        let host = self.host
        return try withMain { (c: SFTPClient) throws(SSHError) -> [UInt8] in
            let attrs = try c.stat(path)
            guard attrs.isRegularFile else {
                let kind = FileInfo(kind: FileInfo.kind(ofMode: attrs.permissions ?? 0), size: 0, mode: 0,
                                    modified: 0, accessed: 0).kindWords
                throw SSHError(.remoteFile, "not a regular file",
                               "\(host): \(PathBytes.shown(path)) is \(kind), not a regular file.",
                               sftpStatus: .failure, path: path)
            }
            let file = try c.open(path, .read)
            var out: [UInt8] = []
            let want = min(limit, Int(attrs.size ?? UInt64(limit)))
            let size = min(max(want + 1, 1), 2 << 20)
            let chunk = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
            defer { chunk.deallocate() }
            while out.count < limit {
                let room = min(size, limit - out.count + 1)
                let n = try file.read(into: UnsafeMutableRawBufferPointer(start: chunk, count: room))
                if n == 0 { break }
                out.append(contentsOf: UnsafeRawBufferPointer(start: chunk, count: n))
            }
            try? file.close()
            return Array(out.prefix(limit))
        }
    }

    // MARK: - Shared with the runner

    static func info(_ c: SFTPClient, _ path: [UInt8], followLinks: Bool) throws(SSHError) -> FileInfo? {
        do throws(SSHError) {
            return info(try c.stat(path, followLinks: followLinks))
        } catch where error.sftpStatus == .noSuchFile || error.sftpStatus == .noSuchPath {
            return nil
        }
    }

    static func info(_ a: SFTPAttributes) -> FileInfo {
        FileInfo(kind: FileInfo.kind(ofMode: a.permissions ?? 0o100000), size: Int64(a.size ?? 0),
                 mode: (a.permissions ?? 0) & 0o7777, modified: Int64(a.modified ?? 0),
                 accessed: Int64(a.accessed ?? 0))
    }

    static func remove(_ c: SFTPClient, _ path: [UInt8], recursive: Bool) throws(SSHError) {
        let attrs = try c.stat(path, followLinks: false)
        guard attrs.isDirectory else { return try c.remove(path) }
        if recursive {
            for entry in try c.list(path) {
                try remove(c, PathBytes.join(path, entry.name), recursive: true)
            }
        }
        try c.removeDirectory(path)
    }

    /// The owner column of an `ls -l` line (`-rw-r--r--    1 root     root  …`), else the uid.
    static func owner(longName: [UInt8], uid: UInt32?) -> String {
        let fields = longName.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: true)
        if fields.count > 3, let name = String(validating: fields[2], as: UTF8.self) { return name }
        return uid.map(String.init) ?? "?"
    }
}

extension RemoteFiles: FileTree {
    public var placeName: String { host }
}
