import CLibSSH2
import Foundation

/// An interactive shell on a PTY over an open session: raw bytes both ways, window-size changes, and the remote
/// exit status at the end. Non-blocking: `read` and `write` never wait; `wait(localDescriptors:timeout:)` polls the
/// socket beside local descriptors (the user's terminal) so one loop serves both directions.
/// The libssh2 channel itself stays inside the session's `SessionHandle` (libssh2's one-thread-per-session rule covers
/// its channels too); this object holds only its id, so every use of the channel is inside `session.state.withLock`.
public final class ShellChannel: Sendable {
    private let session: SSHSession
    private let id: Int

    /// Opens a PTY of `cols`×`rows` with terminal type `term` and starts the user's login shell, or `command` (run
    /// by the user's shell, as `ssh -t DEST COMMAND` does).
    public init(session: SSHSession, term: String, cols: Int, rows: Int, command: String? = nil,
                cancel: Cancellation? = nil) throws(SSHError) {
        self.session = session
        id = try session.state.withLock { (handle: inout SessionHandle) throws(SSHError) -> Int in
            try handle.ensureOpen()
            let io = handle.io(cancel: cancel, timeout: 15)
            let channel = try handle.openChannel(io: io)
            do throws(SSHError) {
                try io.call("asking for a terminal") {
                    libssh2_channel_request_pty_ex(channel, term, UInt32(term.utf8.count), nil, 0,
                                                   Int32(cols), Int32(rows), 0, 0)
                }
                if let command {
                    try io.call("starting the command") {
                        libssh2_channel_process_startup(channel, "exec", 4, command, UInt32(command.utf8.count))
                    }
                } else {
                    try io.call("starting the shell") { libssh2_channel_process_startup(channel, "shell", 5, nil, 0) }
                }
            } catch {
                _ = libssh2_channel_free(channel)
                throw error
            }
            return handle.holdShell(channel)
        }
    }

    deinit {
        session.state.withLock { handle in
            if let channel = handle.takeShell(id) {
                handle.releaseChannel(channel, io: handle.io(timeout: 1), graceful: false)
            }
        }
    }

    /// What `read` found.
    public enum ReadResult: Sendable, Equatable {
        case data(Int)
        case nothing
        case endOfFile
    }

    /// Reads what is available (stdout and stderr merged, as a terminal shows them) into `buffer`.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(SSHError) -> ReadResult {
        try session.state.withLock { (handle: inout SessionHandle) throws(SSHError) -> ReadResult in
            let channel = try handle.shell(id)
            for stream in [Int32(0), Int32(SSH_EXTENDED_DATA_STDERR)] {
                let n = libssh2_channel_read_ex(channel, stream,
                                                buffer.baseAddress?.assumingMemoryBound(to: CChar.self), buffer.count)
                if n > 0 { return .data(n) }
                if n < 0 && n != Int(LIBSSH2_ERROR_EAGAIN) {
                    handle.markBroken()
                    throw handle.io(timeout: 1).error("reading from the shell", Int32(n))
                }
            }
            return libssh2_channel_eof(channel) != 0 ? .endOfFile : .nothing
        }
    }

    /// Writes as much of `bytes` as the channel takes now; returns how many were taken.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(SSHError) -> Int {
        try session.state.withLock { (handle: inout SessionHandle) throws(SSHError) -> Int in
            let channel = try handle.shell(id)
            let n = libssh2_channel_write_ex(channel, 0, bytes.baseAddress?.assumingMemoryBound(to: CChar.self),
                                             bytes.count)
            if n == Int(LIBSSH2_ERROR_EAGAIN) { return 0 }
            if n < 0 {
                handle.markBroken()
                throw handle.io(timeout: 1).error("writing to the shell", Int32(n))
            }
            return n
        }
    }

    /// Tells the remote PTY the new window size (the remote `stty size` follows).
    public func resize(cols: Int, rows: Int) throws(SSHError) {
        try session.state.withLock { (handle: inout SessionHandle) throws(SSHError) in
            let channel = try handle.shell(id)
            try handle.io(timeout: 5).call("resizing the terminal") {
                libssh2_channel_request_pty_size_ex(channel, Int32(cols), Int32(rows), 0, 0)
            }
        }
    }

    /// Whether data is already queued inside libssh2 (poll the socket only when not).
    /// (`SessionHandle.hasQueuedData` says why not `libssh2_poll_channel_read`.)
    public var hasBufferedData: Bool {
        session.state.withLock { handle in
            guard let channel = try? handle.shell(id) else { return false }
            return SessionHandle.hasQueuedData(channel)
        }
    }

    /// Seconds between the keepalives this session sends while waiting (0: none), so a caller can tell how long
    /// a silent server has been missing its answers.
    public var keepaliveInterval: Int { session.keepaliveInterval }

    /// What `wait(localDescriptors:timeout:)` found ready.
    public struct Readiness: Sendable, Equatable {
        /// The server sent something (or libssh2 already holds data): call `read`.
        public var remote: Bool
        /// The local descriptors that became readable (or hung up), in the order given.
        public var local: [Int32]
    }

    /// Waits until the server sends something, any of `localDescriptors` becomes readable, or `timeout` seconds
    /// pass; sends a keepalive when one is due. The local descriptors are always polled, even while data is
    /// buffered, so a stream of output never starves the keyboard (the user's `~.` must get through).
    public func wait(localDescriptors: [Int32], timeout: Double) throws(SSHError) -> Readiness {
        let buffered = hasBufferedData
        let directions = try session.state.withLock { (handle: inout SessionHandle) throws(SSHError) -> Int32 in
            _ = try handle.shell(id)
            var next: Int32 = 0
            let rc = handle.keepaliveInterval > 0 ? libssh2_keepalive_send(handle.raw, &next) : 0
            if rc < 0 && rc != LIBSSH2_ERROR_EAGAIN {
                handle.markBroken()
                throw handle.io(timeout: 1).error("sending a keepalive", rc)
            }
            return libssh2_session_block_directions(handle.raw)
        }
        var events = Int16(POLLIN)
        if directions & LIBSSH2_SESSION_BLOCK_OUTBOUND != 0 { events |= Int16(POLLOUT) }
        var fds = [pollfd(fd: session.fd, events: events, revents: 0)]
        for fd in localDescriptors { fds.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0)) }
        var one: Int32 = 1
        setsockopt(session.fd, Int32(IPPROTO_TCP), TCP_QUICKACK, &one, socklen_t(MemoryLayout<Int32>.size))
        let ms = buffered ? 0 : Int32(min(max(timeout, 0) * 1000, 3_600_000).rounded(.up))
        while poll(&fds, nfds_t(fds.count), ms) < 0 {
            guard errno == EINTR else {
                throw SSHError(.io, String(cString: strerror(errno)), "Waiting for the shell failed.")
            }
            // A signal (a resize) interrupted the wait: the caller comes back and finds its signal pipe readable.
            if ms != 0 { return Readiness(remote: buffered, local: []) }
        }
        // Only incoming bytes count as the server's: POLLOUT says nothing about whether it is alive.
        let incoming = fds[0].revents & Int16(POLLIN | POLLHUP | POLLERR) != 0
        return Readiness(remote: buffered || incoming,
                         local: zip(localDescriptors, fds.dropFirst()).filter { $0.1.revents != 0 }.map(\.0))
    }

    /// Closes the channel and returns how the shell ended. `graceful`: wait (at most 3 s) for the server's close,
    /// which carries the exit status; otherwise (after `~.`, or when the server stopped answering) send the close
    /// and go, leaving the channel to be freed once the server's close arrives, as `run` does after a cancel.
    public func close(graceful: Bool = true) -> CommandExit {
        session.state.withLock { handle in
            guard let channel = handle.takeShell(id) else { return CommandExit(status: nil, signal: nil) }
            guard graceful else {
                let exit = handle.exitOf(channel)
                handle.releaseChannel(channel, io: handle.io(timeout: 1), graceful: false)
                return exit
            }
            if !handle.isBroken {
                let waiter = handle.io(timeout: 3)
                _ = try? waiter.call("closing the shell", allowNegative: true) { libssh2_channel_close(channel) }
                _ = try? waiter.call("closing the shell", allowNegative: true) { libssh2_channel_wait_closed(channel) }
            }
            let exit = handle.exitOf(channel)
            _ = libssh2_channel_free(channel)
            return exit
        }
    }
}
