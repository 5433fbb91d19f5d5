import Basics
import CLibSSH2
import Foundation
import LocalProcess

/// A file's attributes as SFTP version 3 carries them (each field only when the server sent it).
public struct SFTPAttributes: Sendable, Equatable {
    public var size: UInt64?
    public var uid: UInt32?
    public var gid: UInt32?
    /// `st_mode`: the file type bits (`0o170000`) and the permission bits.
    public var permissions: UInt32?
    /// Seconds since 1970 (whole seconds: SFTP v3 has no more).
    public var accessed: UInt32?
    public var modified: UInt32?

    public init(size: UInt64? = nil, uid: UInt32? = nil, gid: UInt32? = nil, permissions: UInt32? = nil,
                accessed: UInt32? = nil, modified: UInt32? = nil) {
        self.size = size
        self.uid = uid
        self.gid = gid
        self.permissions = permissions
        self.accessed = accessed
        self.modified = modified
    }

    /// The type bits of `permissions` (`S_IFMT`); libssh2's `LIBSSH2_SFTP_S_IS*` macros do not import into Swift.
    public var typeBits: UInt32? { permissions.map { $0 & 0o170000 } }
    public var isRegularFile: Bool { typeBits == 0o100000 }
    public var isDirectory: Bool { typeBits == 0o040000 }
    public var isSymbolicLink: Bool { typeBits == 0o120000 }

    init(_ raw: LIBSSH2_SFTP_ATTRIBUTES) {
        let flags = raw.flags
        if flags & UInt(LIBSSH2_SFTP_ATTR_SIZE) != 0 { size = UInt64(raw.filesize) }
        if flags & UInt(LIBSSH2_SFTP_ATTR_UIDGID) != 0 {
            uid = UInt32(truncatingIfNeeded: raw.uid)
            gid = UInt32(truncatingIfNeeded: raw.gid)
        }
        if flags & UInt(LIBSSH2_SFTP_ATTR_PERMISSIONS) != 0 {
            permissions = UInt32(truncatingIfNeeded: raw.permissions)
        }
        if flags & UInt(LIBSSH2_SFTP_ATTR_ACMODTIME) != 0 {
            accessed = UInt32(truncatingIfNeeded: raw.atime)
            modified = UInt32(truncatingIfNeeded: raw.mtime)
        }
    }

    /// libssh2's struct for a setstat: only the fields set here are sent (times go together: both or neither).
    var raw: LIBSSH2_SFTP_ATTRIBUTES {
        var out = LIBSSH2_SFTP_ATTRIBUTES()
        if let size {
            out.flags |= UInt(LIBSSH2_SFTP_ATTR_SIZE)
            out.filesize = libssh2_uint64_t(size)
        }
        if let uid, let gid {
            out.flags |= UInt(LIBSSH2_SFTP_ATTR_UIDGID)
            out.uid = UInt(uid)
            out.gid = UInt(gid)
        }
        if let permissions {
            out.flags |= UInt(LIBSSH2_SFTP_ATTR_PERMISSIONS)
            out.permissions = UInt(permissions)
        }
        if accessed != nil || modified != nil {
            out.flags |= UInt(LIBSSH2_SFTP_ATTR_ACMODTIME)
            out.atime = UInt(accessed ?? modified ?? 0)
            out.mtime = UInt(modified ?? accessed ?? 0)
        }
        return out
    }
}

/// One name of a remote folder listing: raw name bytes, the attributes (of the entry itself: OpenSSH lstat()s), and
/// the server's `ls -l` line, which carries the owner's name (SFTP v3 gives only uid and gid).
public struct SFTPDirectoryEntry: Sendable, Equatable {
    public var name: [UInt8]
    public var attributes: SFTPAttributes
    public var longName: [UInt8]
}

/// How a remote file is opened.
public enum SFTPOpenMode: Sendable, Equatable {
    /// For reading.
    case read
    /// For writing, created if missing and truncated (`mode` applies to a new file).
    case createTruncate
    /// For writing, created if missing, kept as it is (seek to where writing goes).
    case createKeep
    /// For writing, created new: refused when anything is there, a link included (`O_CREAT|O_EXCL`).
    case createNew
}

/// One SFTP channel on an `SSHSession`: the calls of the SFTP subsystem, each blocking its caller until the server
/// answered, with `cancel` and a `timeout` per wait. The only user of `libssh2_sftp_*`.
///
/// Several clients on one session run at once from several threads (lanes): each call holds the session's lock only
/// while libssh2 runs, and waits for the socket outside it. A client itself is used by one thread at a time: libssh2
/// keeps one state per kind of operation per channel. A cancel or timeout in the middle of a call leaves that state
/// half done, so the channel is then shut down and every later call throws `disconnected`.
public final class SFTPClient: Sendable {
    public let session: SSHSession
    private let id: Int
    private let cancel: Cancellation?
    private let timeout: Double
    /// Wakes this channel's waiting thread when another thread read the socket (and maybe this channel's answer).
    private let waker: SelfPipe

    /// Opens the SFTP subsystem on a new channel of `session`.
    public init(session: SSHSession, cancel: Cancellation? = nil, timeout: Double = 60) throws(SSHError) {
        self.session = session
        self.cancel = cancel
        self.timeout = timeout
        do throws(SelfPipe.Failure) {
            waker = try SelfPipe()
        } catch {
            throw SSHError(.io, "pipe: \(error.reason)", "Cannot open a pipe for the file channel (\(error.reason)): too "
                           + "many files are open; raise the limit (ulimit -n).")
        }
        let host = session.host
        var mine = false
        id = try Self.drive(session: session, cancel: cancel, timeout: timeout, what: "opening the file channel",
                            waiter: nil, onAbandon: nil) { (handle: inout SessionHandle) throws(SSHError) -> Int? in
            try handle.ensureOpen()
            if handle.relayed {
                throw SSHError(.library, "session relayed", """
                    The connection to \(host) carries relayed connections (a jump host's): it opens no file channel.
                    """)
            }
            if handle.sftpOpening && !mine { return nil }
            if let sftp = libssh2_sftp_init(handle.raw) {
                handle.sftpOpening = false
                return handle.holdSFTP(sftp)
            }
            let rc = libssh2_session_last_errno(handle.raw)
            if rc == LIBSSH2_ERROR_EAGAIN {
                handle.sftpOpening = true
                mine = true
                return nil
            }
            handle.sftpOpening = false
            let error = handle.io(timeout: 1).error("opening the file channel", rc)
            if error.kind == .disconnected { handle.markBroken() }
            // libssh2's words tell a refused channel ("Unable to startup channel": sshd's MaxSessions) from a
            // refused subsystem ("Unable to request SFTP subsystem").
            if error.detail.contains("Unable to startup channel") {
                throw SSHError(.library, error.detail, "\(host) refused another channel (sshd allows 10 per "
                               + "connection unless its MaxSessions says otherwise): use fewer at once.")
            }
            if rc == LIBSSH2_ERROR_CHANNEL_FAILURE || rc == LIBSSH2_ERROR_CHANNEL_REQUEST_DENIED
                || rc == LIBSSH2_ERROR_SFTP_PROTOCOL {
                throw SSHError(.library, error.detail,
                               "\(host) offers no SFTP file service (its sshd has no sftp subsystem).")
            }
            throw error
        }
    }

    deinit { close() }

    /// Shuts the channel down (its open files with it). Idempotent; bounded to a second.
    public func close() {
        session.state.withLock { handle in
            if let sftp = handle.takeSFTP(id), !handle.isBroken, !handle.isClosed {
                _ = try? handle.io(timeout: 1).call("closing the file channel", allowNegative: true) {
                    libssh2_sftp_shutdown(sftp)
                }
            }
        }
    }

    /// Whether the channel is still usable (not closed, not dropped after a cancel, session up).
    public var isOpen: Bool {
        session.state.withLock { handle in (try? handle.sftp(id)) != nil }
    }

    // MARK: - Names

    /// The attributes of `path` (of the link itself when `followLinks` is false).
    public func stat(_ path: [UInt8], followLinks: Bool = true) throws(SSHError) -> SFTPAttributes {
        var attrs = LIBSSH2_SFTP_ATTRIBUTES()
        try call("reading the attributes of", path) { sftp in
            Int(path.withCChars { p, n in
                libssh2_sftp_stat_ex(sftp, p, n, followLinks ? LIBSSH2_SFTP_STAT : LIBSSH2_SFTP_LSTAT, &attrs)
            })
        }
        return SFTPAttributes(attrs)
    }

    /// Sets what `attributes` holds on `path` (size, owner, mode, times).
    public func setStat(_ path: [UInt8], _ attributes: SFTPAttributes) throws(SSHError) {
        var attrs = attributes.raw
        try call("setting the attributes of", path) { sftp in
            Int(path.withCChars { p, n in libssh2_sftp_stat_ex(sftp, p, n, LIBSSH2_SFTP_SETSTAT, &attrs) })
        }
    }

    /// The canonical absolute form of `path` (`.` is the login folder).
    public func realPath(_ path: [UInt8]) throws(SSHError) -> [UInt8] {
        try linkCall(path, LIBSSH2_SFTP_REALPATH, "resolving")
    }

    /// Where the symbolic link `path` points.
    public func readLink(_ path: [UInt8]) throws(SSHError) -> [UInt8] {
        try linkCall(path, LIBSSH2_SFTP_READLINK, "reading the link")
    }

    /// Makes a symbolic link at `link` pointing to `target`. OpenSSH reads SYMLINK's arguments the other way round
    /// from the draft libssh2 follows, so they go in swapped (as OpenSSH's own sftp client sends them).
    ///
    /// libssh2 1.11.1 reads SYMLINK's status from the wrong place (it reports the request id: "failed" with status 1,
    /// 2, … once the channel has made other requests, though the link was made), so a failure is checked by reading
    /// the link back: it stands when the link is not there pointing at `target`.
    public func makeSymbolicLink(_ link: [UInt8], pointingTo target: [UInt8]) throws(SSHError) {
        do throws(SSHError) {
            try call("making the link", link) { sftp in
                Int(target.withCChars { t, tn in
                    link.withCChars { l, ln in
                        libssh2_sftp_symlink_ex(sftp, t, tn, UnsafeMutablePointer(mutating: l), ln,
                                                LIBSSH2_SFTP_SYMLINK)
                    }
                })
            }
        } catch where error.kind == .remoteFile {
            if (try? readLink(link)) == target { return }
            let status: SFTPStatus = (try? stat(link, followLinks: false)) != nil ? .alreadyExists : .failure
            throw SSHError(.remoteFile, error.detail, "\(session.host): \(PathText.shown(link)): "
                           + (status == .alreadyExists ? "it already exists." : "the link could not be made."),
                           sftpStatus: status, path: link)
        }
    }

    public func makeDirectory(_ path: [UInt8], mode: UInt32 = 0o755) throws(SSHError) {
        try call("making the folder", path) { sftp in
            Int(path.withCChars { p, n in libssh2_sftp_mkdir_ex(sftp, p, n, Int(mode)) })
        }
    }

    public func removeDirectory(_ path: [UInt8]) throws(SSHError) {
        try call("removing the folder", path) { sftp in
            Int(path.withCChars { p, n in libssh2_sftp_rmdir_ex(sftp, p, n) })
        }
    }

    /// Removes a file or a symbolic link (not a folder).
    public func remove(_ path: [UInt8]) throws(SSHError) {
        try call("removing", path) { sftp in
            Int(path.withCChars { p, n in libssh2_sftp_unlink_ex(sftp, p, n) })
        }
    }

    /// SFTP v3's RENAME: fails (OpenSSH: FX 4) when `to` exists.
    public func rename(_ from: [UInt8], to: [UInt8]) throws(SSHError) {
        try call("renaming", from) { sftp in
            Int(from.withCChars { f, fn in
                to.withCChars { t, tn in
                    libssh2_sftp_rename_ex(sftp, f, fn, t, tn, Int(LIBSSH2_SFTP_RENAME_OVERWRITE
                        | LIBSSH2_SFTP_RENAME_ATOMIC | LIBSSH2_SFTP_RENAME_NATIVE))
                }
            })
        }
    }

    /// `posix-rename@openssh.com`: replaces `to` atomically. False when the server lacks the extension (libssh2 then
    /// answers +8 without asking it); the caller falls back to remove + rename.
    public func posixRename(_ from: [UInt8], to: [UInt8]) throws(SSHError) -> Bool {
        let rc = try call("renaming", from) { sftp in
            Int(from.withCChars { f, fn in
                to.withCChars { t, tn in libssh2_sftp_posix_rename_ex(sftp, f, Int(fn), t, Int(tn)) }
            })
        }
        return rc == 0
    }

    /// Bytes an unprivileged user may still write on the file system holding `path` (`statvfs@openssh.com`).
    public func spaceAvailable(_ path: [UInt8]) throws(SSHError) -> UInt64 {
        var st = LIBSSH2_SFTP_STATVFS()
        try call("reading the free space of", path) { sftp in
            Int(path.withCChars { p, n in libssh2_sftp_statvfs(sftp, p, Int(n), &st) })
        }
        return UInt64(st.f_bavail) &* UInt64(st.f_frsize)
    }

    /// The names in folder `path` (without `.` and `..`), with attributes and `ls -l` lines.
    public func list(_ path: [UInt8]) throws(SSHError) -> [SFTPDirectoryEntry] {
        let dir = try openHandle(path, flags: 0, mode: 0, type: LIBSSH2_SFTP_OPENDIR, what: "opening the folder")
        defer { closeHandle(dir) }
        var out: [SFTPDirectoryEntry] = []
        let size = 8192
        var name = [CChar](repeating: 0, count: size), long = [CChar](repeating: 0, count: size)
        while true {
            var attrs = LIBSSH2_SFTP_ATTRIBUTES()
            long[0] = 0
            let n = try handleCall(dir, "listing the folder", path) { h in
                Int(libssh2_sftp_readdir_ex(h, &name, size, &long, size, &attrs))
            }
            // libssh2 answers 0 both at the end and for an entry with an empty name; only an entry comes with its
            // `ls -l` line or attributes. An empty name is kept, for the caller to refuse and report.
            if n == 0 && long[0] == 0 && attrs.flags == 0 { break }
            let bytes = name.prefix(n).map { UInt8(bitPattern: $0) }
            if bytes == [0x2E] || bytes == [0x2E, 0x2E] { continue }
            let longBytes = Array(long.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) })
            out.append(SFTPDirectoryEntry(name: bytes, attributes: SFTPAttributes(attrs), longName: longBytes))
        }
        return out
    }

    /// Opens the regular file `path`. Callers stat first: opening a FIFO over SFTP hangs the whole channel.
    public func open(_ path: [UInt8], _ how: SFTPOpenMode, mode: UInt32 = 0o644) throws(SSHError) -> SFTPFile {
        let flags: Int32
        switch how {
        case .read: flags = LIBSSH2_FXF_READ
        case .createTruncate: flags = LIBSSH2_FXF_WRITE | LIBSSH2_FXF_CREAT | LIBSSH2_FXF_TRUNC
        case .createKeep: flags = LIBSSH2_FXF_WRITE | LIBSSH2_FXF_CREAT
        case .createNew: flags = LIBSSH2_FXF_WRITE | LIBSSH2_FXF_CREAT | LIBSSH2_FXF_EXCL
        }
        let handle = try openHandle(path, flags: UInt(flags), mode: Int(mode), type: LIBSSH2_SFTP_OPENFILE,
                                    what: "opening")
        return SFTPFile(client: self, handle: handle, path: path)
    }

    // MARK: - Driving libssh2

    private func linkCall(_ path: [UInt8], _ type: Int32, _ what: String) throws(SSHError) -> [UInt8] {
        var buffer = [CChar](repeating: 0, count: 8192)
        let n = try call(what, path) { sftp in
            Int(path.withCChars { p, pn in
                libssh2_sftp_symlink_ex(sftp, p, pn, &buffer, UInt32(buffer.count), type)
            })
        }
        return buffer.prefix(n).map { UInt8(bitPattern: $0) }
    }

    private func openHandle(_ path: [UInt8], flags: UInt, mode: Int, type: Int32,
                            what: String) throws(SSHError) -> Int {
        let id = self.id
        let host = session.host
        return try Self.drive(session: session, cancel: cancel, timeout: timeout, what: what,
                              waiter: (id, waker), onAbandon: abandon) { (handle: inout SessionHandle) throws(SSHError) -> Int? in
            let sftp = try handle.sftp(id)
            if let file = path.withCChars({ p, n in libssh2_sftp_open_ex(sftp, p, n, flags, mode, type) }) {
                return handle.holdSFTPHandle(file)
            }
            let rc = libssh2_session_last_errno(handle.raw)
            if rc == LIBSSH2_ERROR_EAGAIN { return nil }
            throw Self.failure(&handle, sftp: sftp, rc: rc, what: what, path: path, host: host)
        }
    }

    func closeHandle(_ fileID: Int) {
        let owner = id
        session.state.withLock { handle in
            guard let file = handle.takeSFTPHandle(fileID), (try? handle.sftp(owner)) != nil,
                  !handle.isBroken else { return }
            _ = try? handle.io(cancel: nil, timeout: 5).call("closing the remote file", allowNegative: true) {
                libssh2_sftp_close_handle(file)
            }
        }
    }

    /// Runs `body` (given the SFTP channel) until it stops answering EAGAIN; a negative result throws.
    @discardableResult
    func call(_ what: String, _ path: [UInt8], _ body: @escaping (OpaquePointer) -> Int) throws(SSHError) -> Int {
        let id = self.id, host = session.host
        return try Self.drive(session: session, cancel: cancel, timeout: timeout, what: what,
                              waiter: (id, waker), onAbandon: abandon) { (handle: inout SessionHandle) throws(SSHError) -> Int? in
            let sftp = try handle.sftp(id)
            let rc = body(sftp)
            if rc == Int(LIBSSH2_ERROR_EAGAIN) { return nil }
            if rc < 0 { throw Self.failure(&handle, sftp: sftp, rc: Int32(rc), what: what, path: path, host: host) }
            return rc
        }
    }

    /// As `call`, on open file or folder `fileID`.
    @discardableResult
    func handleCall(_ fileID: Int, _ what: String, _ path: [UInt8],
                    _ body: (OpaquePointer) -> Int) throws(SSHError) -> Int {
        let id = self.id, host = session.host
        return try Self.drive(session: session, cancel: cancel, timeout: timeout, what: what,
                              waiter: (id, waker), onAbandon: abandon) { (handle: inout SessionHandle) throws(SSHError) -> Int? in
            let sftp = try handle.sftp(id)
            let file = try handle.sftpHandle(fileID)
            let rc = body(file)
            if rc == Int(LIBSSH2_ERROR_EAGAIN) { return nil }
            if rc < 0 { throw Self.failure(&handle, sftp: sftp, rc: Int32(rc), what: what, path: path, host: host) }
            return rc
        }
    }

    /// A cancel or timeout mid-call: the channel's state for that call is half done, so drop the channel.
    private func abandon(_ handle: inout SessionHandle) {
        if let sftp = handle.takeSFTP(id), !handle.isBroken, !handle.isClosed {
            // Not awaited: the server's late answers are dropped with the channel.
            _ = libssh2_sftp_shutdown(sftp)
        }
    }

    /// The module's error for libssh2 result `rc` of a call on `path`: an SFTP status becomes `remoteFile`.
    static func failure(_ handle: inout SessionHandle, sftp: OpaquePointer, rc: Int32, what: String,
                        path: [UInt8], host: String) -> SSHError {
        if rc == LIBSSH2_ERROR_SFTP_PROTOCOL {
            let status = SFTPStatus(code: UInt32(truncatingIfNeeded: libssh2_sftp_last_error(sftp)))
            let said = handle.io(timeout: 1).lastErrorMessage
            return SSHError(.remoteFile, "SFTP status \(status.rawValue) while \(what) (libssh2: \(said))",
                            "\(host): \(PathText.shown(path)): \(status.words).", sftpStatus: status, path: path)
        }
        let error = handle.io(timeout: 1).error(what + " " + PathText.shown(path), rc)
        if error.kind == .disconnected { handle.markBroken() }
        return error
    }

    /// The retry loop: `step` runs with the session's lock held and answers nil for "again" (EAGAIN); between tries
    /// the socket is polled without the lock, beside `cancel` and the channel's own wake pipe: a thread whose step
    /// found bytes waiting on the socket wakes every waiting channel, since libssh2 may have queued their answers.
    /// Each wait is limited by `timeout` of no answer.
    static func drive(session: SSHSession, cancel: Cancellation?, timeout: Double, what: String,
                      waiter: (id: Int, pipe: SelfPipe)?, onAbandon: ((inout SessionHandle) -> Void)?,
                      _ step: (inout SessionHandle) throws(SSHError) -> Int?) throws(SSHError) -> Int {
        var waitingSince: Date?
        while true {
            let (result, directions, lanes) = try session.state.withLock {
                (handle: inout SessionHandle) throws(SSHError) -> (Int?, Int32, Int) in
                if let waiter { handle.sftpWaiters[waiter.id] = nil }
                var unread: Int32 = 0
                if !handle.sftpWaiters.isEmpty { _ = ioctl(handle.fd, UInt(FIONREAD), &unread) }
                let value: Int?
                do throws(SSHError) {
                    value = try step(&handle)
                } catch {
                    if unread > 0 { for other in handle.sftpWaiters.values { other.wake() } }
                    throw error
                }
                // This thread read the socket: the answers of channels waiting on other threads may be among what
                // libssh2 took off it, and their poll would not see them.
                if unread > 0 { for other in handle.sftpWaiters.values { other.wake() } }
                if value == nil, let waiter { handle.sftpWaiters[waiter.id] = waiter.pipe }
                return (value, value == nil ? libssh2_session_block_directions(handle.raw) : 0,
                        handle.sftpChannelCount)
            }
            if let result { return result }
            let start = waitingSince ?? Date()
            waitingSince = start
            if cancel?.isCancelled == true {
                session.state.withLock { handle in
                    handle.sftpOpening = false
                    if let waiter { handle.sftpWaiters[waiter.id] = nil }
                    onAbandon?(&handle)
                }
                throw SSHError(.cancelled, what, "Cancelled while \(what).")
            }
            let left = timeout - Date().timeIntervalSince(start)
            if left <= 0 {
                session.state.withLock { handle in
                    handle.sftpOpening = false
                    if let waiter { handle.sftpWaiters[waiter.id] = nil }
                    onAbandon?(&handle)
                }
                throw SSHError(.timedOut, what, "\(session.host) did not answer within "
                               + "\(DurationText.text(timeout, .number)) s while \(what).")
            }
            var events: Int16 = 0
            if directions & LIBSSH2_SESSION_BLOCK_INBOUND != 0 || directions == 0 { events |= Int16(POLLIN) }
            if directions & LIBSSH2_SESSION_BLOCK_OUTBOUND != 0 { events |= Int16(POLLOUT) }
            var fds = [pollfd(fd: session.fd, events: events, revents: 0),
                       pollfd(fd: cancel?.pollDescriptor ?? -1, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: waiter?.pipe.readDescriptor ?? -1, events: Int16(POLLIN), revents: 0)]
            // Without a waker (opening a channel) another lane's read could go unseen: poll briefly then.
            let cap = waiter == nil && lanes > 0 ? 2.0 : 50.0
            _ = poll(&fds, 3, Int32(min(cap, max(1, left * 1000)).rounded(.up)))
            if fds[2].revents != 0 { _ = waiter?.pipe.drain() }
        }
    }
}

/// An open remote file of an `SFTPClient`; used by one thread at a time. Closed by `close()` or when released.
public final class SFTPFile: Sendable {
    public let client: SFTPClient
    private let id: Int
    public let path: [UInt8]

    init(client: SFTPClient, handle: Int, path: [UInt8]) {
        self.client = client
        self.id = handle
        self.path = path
    }

    deinit { client.closeHandle(id) }

    /// Reads the next bytes into `buffer`; 0 at the end of the file. libssh2 asks the server for up to four times
    /// `buffer.count` ahead, so keep `buffer` no larger than what is left of the file (plus one byte to see the end).
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(SSHError) -> Int {
        try client.handleCall(id, "reading", path) { h in
            libssh2_sftp_read(h, buffer.baseAddress?.assumingMemoryBound(to: CChar.self), buffer.count)
        }
    }

    /// Sends `bytes` and returns how many the server acknowledged (at least one). The next call must start at the
    /// first byte not acknowledged, with what follows it (libssh2 skips what it sent already).
    public func write(_ bytes: UnsafeRawBufferPointer) throws(SSHError) -> Int {
        try client.handleCall(id, "writing", path) { h in
            libssh2_sftp_write(h, bytes.baseAddress?.assumingMemoryBound(to: CChar.self), bytes.count)
        }
    }

    /// The open file's attributes.
    public func stat() throws(SSHError) -> SFTPAttributes {
        var attrs = LIBSSH2_SFTP_ATTRIBUTES()
        try client.handleCall(id, "reading the attributes of", path) { h in Int(libssh2_sftp_fstat_ex(h, &attrs, 0)) }
        return SFTPAttributes(attrs)
    }

    /// Sets the open file's attributes (`-p`: mode and times before the rename into place).
    public func setStat(_ attributes: SFTPAttributes) throws(SSHError) {
        var attrs = attributes.raw
        try client.handleCall(id, "setting the attributes of", path) { h in Int(libssh2_sftp_fstat_ex(h, &attrs, 1)) }
    }

    /// Bytes free for an unprivileged user on the file's file system (`fstatvfs@openssh.com`).
    public func spaceAvailable() throws(SSHError) -> UInt64 {
        var st = LIBSSH2_SFTP_STATVFS()
        try client.handleCall(id, "reading the free space of", path) { h in Int(libssh2_sftp_fstatvfs(h, &st)) }
        return UInt64(st.f_bavail) &* UInt64(st.f_frsize)
    }

    /// Moves to byte `offset`; drops every read-ahead in flight.
    public func seek(to offset: UInt64) throws(SSHError) {
        try client.handleCall(id, "seeking in", path) { h in
            libssh2_sftp_seek64(h, libssh2_uint64_t(offset))
            return 0
        }
    }

    /// Closes the file after a failure or a cancel, ignoring the cancel and any error, waiting at most 5 s: the
    /// server answers a close after every request sent before it on this channel, so once this returns the writes
    /// already sent are on its disk and the partial can be cut or removed from another channel without a late write
    /// landing after. Nothing when the channel was dropped.
    public func settle() {
        client.closeHandle(id)
    }

    /// Closes the file, waiting for the server's answer (a failed close is a failed write).
    public func close() throws(SSHError) {
        try client.handleCall(id, "closing", path) { h in Int(libssh2_sftp_close_handle(h)) }
        client.forget(id)
    }
}

extension SFTPClient {
    /// Drops a file id once its handle was closed by `close()`.
    func forget(_ fileID: Int) {
        session.state.withLock { handle in _ = handle.takeSFTPHandle(fileID) }
    }
}

extension Array where Element == UInt8 {
    /// The bytes as a `char` pointer and a length, for libssh2's `(path, path_len)` pairs.
    func withCChars<R>(_ body: (UnsafePointer<CChar>, UInt32) -> R) -> R {
        var copy = self.map { CChar(bitPattern: $0) }
        copy.append(0)
        return copy.withUnsafeBufferPointer { body($0.baseAddress!, UInt32(count)) }
    }
}

/// A path's bytes shown in a sentence: valid UTF-8 as is, other bytes as `\xNN`, control characters escaped.
public enum PathText {
    public static func shown(_ path: [UInt8]) -> String {
        var out = ""
        var i = 0
        while i < path.count {
            if let (scalar, length) = decode(path, i), scalar.value >= 0x20, scalar.value != 0x7F {
                out.unicodeScalars.append(scalar)
                i += length
            } else {
                let b = path[i]
                switch b {
                case 0x0A: out += "\\n"
                case 0x09: out += "\\t"
                default: out += "\\x" + String(b, radix: 16, uppercase: true).leftPadded(2)
                }
                i += 1
            }
        }
        return out
    }

    private static func decode(_ bytes: [UInt8], _ start: Int) -> (Unicode.Scalar, Int)? {
        let b0 = bytes[start]
        if b0 < 0x80 { return (Unicode.Scalar(b0), 1) }
        let length = b0 >= 0xF0 ? 4 : b0 >= 0xE0 ? 3 : b0 >= 0xC0 ? 2 : 0
        guard length > 0, start + length <= bytes.count,
              let text = String(validating: bytes[start..<(start + length)], as: UTF8.self),
              let scalar = text.unicodeScalars.first else { return nil }
        return (scalar, length)
    }
}

private extension String {
    func leftPadded(_ width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
