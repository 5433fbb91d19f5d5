import CLibSSH2
import Foundation
import LocalProcess

/// The libssh2 session of an `SSHSession` and the state that goes with it. It lives inside the session's `Mutex`,
/// so it can only be reached with the lock held: libssh2 allows one thread at a time per session, and the compiler
/// now checks that every use of `raw` (and of the channels opened on it) happens inside `state.withLock`.
/// Not `Sendable`: it never leaves the lock.
struct SessionHandle {
    /// The libssh2 session.
    let raw: OpaquePointer
    /// The connected socket (also kept, immutable, on `SSHSession` for polling outside the lock).
    let fd: Int32
    /// The host, for messages.
    let host: String
    /// Seconds between keepalives (0: none).
    let keepaliveInterval: Int
    /// What libssh2's C callbacks reach through the session's `abstract` pointer; kept alive as long as the session.
    let context: SessionContext
    /// `disconnect()` ran: `raw` is freed and `fd` closed.
    private(set) var isClosed = false
    /// The connection broke: no more goodbyes or channel closes are attempted.
    private(set) var isBroken = false
    /// Channels closed on our side whose server side is still open (a cancelled command still running).
    var closing: [OpaquePointer] = []
    /// When this session last closed a channel whose remote process may still be ending: a server counting its
    /// session channels (sshd's MaxSessions) frees the slot only once it has reaped that process, so a channel
    /// refused soon after is asked for again for a moment (`openChannel`).
    var lastChannelClosedAt: ContinuousClock.Instant?
    /// A `ChannelRelay` owns the session's channels now: no other channel may be opened (libssh2 keeps one open
    /// in progress per session, and another open would finish the relay's).
    var relayed = false
    /// The channels of open shells (a `ShellChannel`'s PTY, a `CommandShell`'s), by id, so their pointers never
    /// leave the lock either.
    private var shells: [Int: OpaquePointer] = [:]
    private var nextShell = 0
    /// SFTP channels (`LIBSSH2_SFTP`) and their open files and folders (`LIBSSH2_SFTP_HANDLE`), by id, as shells:
    /// an `SFTPClient` or `SFTPFile` holds only its id, so a use after close is `disconnected`.
    private var sftpChannels: [Int: OpaquePointer] = [:]
    private var sftpHandles: [Int: OpaquePointer] = [:]
    private var nextSFTP = 0
    /// How many SFTP channels are open: their threads share the socket, so each waits in short polls.
    var sftpChannelCount: Int { sftpChannels.count }
    /// SFTP channels whose thread waits for an answer, with the pipe that wakes it: a thread that reads the socket
    /// under the lock may take another channel's answer off it, and then wakes the others (see `SFTPClient.drive`).
    var sftpWaiters: [Int: SelfPipe] = [:]
    /// An `SFTPClient` is opening its channel: libssh2 keeps one SFTP start-up state per session, so the next waits.
    var sftpOpening = false

    init(raw: OpaquePointer, fd: Int32, host: String, keepaliveInterval: Int, context: SessionContext) {
        self.raw = raw
        self.fd = fd
        self.host = host
        self.keepaliveInterval = keepaliveInterval
        self.context = context
    }

    func ensureOpen() throws(SSHError) {
        if isClosed { throw SSHError(.disconnected, "", "The connection to \(host) is closed.") }
    }

    mutating func markBroken() { isBroken = true }

    /// Keeps a shell's channel; its id is what the `ShellChannel` or `CommandShell` holds.
    mutating func holdShell(_ channel: OpaquePointer) -> Int {
        nextShell += 1
        shells[nextShell] = channel
        return nextShell
    }

    /// The channel of shell `id`, or `disconnected` once the shell or the session was closed.
    func shell(_ id: Int) throws(SSHError) -> OpaquePointer {
        try ensureOpen()
        guard let channel = shells[id] else {
            throw SSHError(.disconnected, "shell channel closed", "The shell on \(host) is closed.")
        }
        return channel
    }

    /// Gives up shell `id`'s channel to be closed (nil when it was closed already, or the session was).
    mutating func takeShell(_ id: Int) -> OpaquePointer? {
        shells.removeValue(forKey: id)
    }

    /// Keeps an SFTP channel; returns its id.
    mutating func holdSFTP(_ sftp: OpaquePointer) -> Int {
        nextSFTP += 1
        sftpChannels[nextSFTP] = sftp
        return nextSFTP
    }

    /// SFTP channel `id`, or `disconnected` once it or the session was closed.
    func sftp(_ id: Int) throws(SSHError) -> OpaquePointer {
        try ensureOpen()
        guard let sftp = sftpChannels[id] else {
            throw SSHError(.disconnected, "sftp channel closed", "The file channel to \(host) is closed.")
        }
        return sftp
    }

    /// Gives up SFTP channel `id` to be shut down (nil when closed already).
    mutating func takeSFTP(_ id: Int) -> OpaquePointer? { sftpChannels.removeValue(forKey: id) }

    /// Keeps an open SFTP file or folder handle; returns its id.
    mutating func holdSFTPHandle(_ handle: OpaquePointer) -> Int {
        nextSFTP += 1
        sftpHandles[nextSFTP] = handle
        return nextSFTP
    }

    /// SFTP file handle `id`, or `disconnected` once it, its channel or the session was closed.
    func sftpHandle(_ id: Int) throws(SSHError) -> OpaquePointer {
        try ensureOpen()
        guard let handle = sftpHandles[id] else {
            throw SSHError(.disconnected, "sftp handle closed", "The remote file on \(host) is closed.")
        }
        return handle
    }

    /// Gives up file handle `id` to be closed (nil when closed already).
    mutating func takeSFTPHandle(_ id: Int) -> OpaquePointer? { sftpHandles.removeValue(forKey: id) }

    /// Drives libssh2 calls on this session with `cancel` and a `timeout` per wait.
    func io(cancel: Cancellation? = nil, timeout: Double) -> SessionIO {
        SessionIO(raw: raw, fd: fd, cancel: cancel, timeout: timeout)
    }

    /// Says goodbye to the server, frees the session and closes the socket, once.
    mutating func shutdown() {
        guard !isClosed else { return }
        isClosed = true
        // Bounded: a dead peer must not hold up the goodbye.
        libssh2_session_set_blocking(raw, 1)
        libssh2_session_set_timeout(raw, 1000)
        _ = libssh2_session_disconnect_ex(raw, 11 /* SSH_DISCONNECT_BY_APPLICATION */, "bye", "")
        libssh2_session_free(raw)
        close(fd)
        // libssh2 freed the session's channels with it.
        shells.removeAll()
        sftpChannels.removeAll()
        sftpHandles.removeAll()
        sftpWaiters.removeAll()
        closing.removeAll()
    }
}

/// What libssh2's keyboard-interactive callback (a C function) reaches through the session's `abstract` pointer.
/// Used only while connecting, by the one thread connecting, before the `SSHSession` exists; afterwards it is kept
/// alive inside the `SessionHandle` (the pointer must stay valid as long as the libssh2 session).
final class SessionContext {
    var keyboardInteractive: ((String, String, [(text: String, echo: Bool)]) -> [String]?)?
    /// For a session reached through jump hosts: why the connection through them was lost (nil while it is
    /// fine). A broken connection then says which hop was lost, not only that this session's socket closed.
    var upstreamLoss: (@Sendable () -> String?)?

    /// The context of a libssh2 session made by this module (its `abstract` pointer).
    static func of(_ raw: OpaquePointer) -> SessionContext? {
        guard let pointer = libssh2_session_abstract(raw)?.pointee else { return nil }
        return Unmanaged<SessionContext>.fromOpaque(pointer).takeUnretainedValue()
    }
}
