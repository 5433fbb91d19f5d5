import Basics
import CLibSSH2
import Foundation

/// Drives non-blocking libssh2 calls: retries on EAGAIN after polling the socket in the direction libssh2 is
/// blocked on, beside the cancellation pipe, so every wait has a deadline and can be cancelled.
struct SessionIO {
    let raw: OpaquePointer
    let fd: Int32
    let cancel: Cancellation?
    /// Seconds each network wait may take (the connect timeout while connecting).
    let timeout: Double

    enum Wait { case ready, timedOut, cancelled, extraReady }

    /// Polls the socket (and `extra`, when given) until one is ready, the deadline passes or a cancel comes.
    func wait(until deadline: Date?, extra: Int32? = nil, forceRead: Bool = false) -> Wait {
        let dirs = libssh2_session_block_directions(raw)
        var events: Int16 = 0
        if dirs & LIBSSH2_SESSION_BLOCK_INBOUND != 0 || dirs == 0 || forceRead { events |= Int16(POLLIN) }
        if dirs & LIBSSH2_SESSION_BLOCK_OUTBOUND != 0 { events |= Int16(POLLOUT) }
        var fds = [pollfd(fd: fd, events: events, revents: 0)]
        let cancelIndex = fds.count
        fds.append(pollfd(fd: cancel?.pollDescriptor ?? -1, events: Int16(POLLIN), revents: 0))
        let extraIndex = fds.count
        fds.append(pollfd(fd: extra ?? -1, events: Int16(POLLIN), revents: 0))
        // Acknowledge at once: sshd sends bulk output with Nagle on, and while we send nothing back our kernel would
        // delay its ACKs (up to 40 ms each), stalling the stream. Linux clears QUICKACK by itself, so set it per wait.
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_QUICKACK, &one, socklen_t(MemoryLayout<Int32>.size))
        while true {
            var ms: Int32 = -1
            if let deadline {
                let left = deadline.timeIntervalSinceNow
                if left <= 0 { return .timedOut }
                ms = Int32(min(left * 1000, 3_600_000).rounded(.up))
            }
            let n = poll(&fds, nfds_t(fds.count), ms)
            if n < 0 && errno == EINTR { continue }
            if n == 0 { return .timedOut }
            if fds[cancelIndex].revents != 0 { return .cancelled }
            if fds[0].revents != 0 { return .ready }
            if fds[extraIndex].revents != 0 { return .extraReady }
            return .ready
        }
    }

    /// Runs `body` until it stops answering EAGAIN; throws on timeout, cancel, or a negative result.
    @discardableResult
    func call(_ what: String, allowNegative: Bool = false, _ body: () -> Int32) throws(SSHError) -> Int32 {
        while true {
            let rc = body()
            if rc == LIBSSH2_ERROR_EAGAIN {
                try waitOrThrow(what)
                continue
            }
            if rc < 0 && !allowNegative { throw error(what, rc) }
            return rc
        }
    }

    func waitOrThrow(_ what: String) throws(SSHError) {
        switch wait(until: Date().addingTimeInterval(timeout)) {
        case .ready, .extraReady: return
        case .cancelled: throw SSHError(.cancelled, what, "Cancelled \(Self.when(what)).")
        case .timedOut:
            let limit = DurationText.text(timeout, .number)
            throw SSHError(.timedOut, what, "The server did not answer within \(limit) s \(Self.when(what)).")
        }
    }

    /// `what` after the verb of a sentence: a step named by a noun (`the handshake`) happens "during" it, one named
    /// by what eSSH was doing (`opening a channel`) "while" it.
    static func when(_ what: String) -> String {
        what.hasPrefix("the ") ? "during \(what)" : "while \(what)"
    }

    /// libssh2's last error message.
    var lastErrorMessage: String {
        var msg: UnsafeMutablePointer<CChar>?
        var len: Int32 = 0
        _ = libssh2_session_last_error(raw, &msg, &len, 0)
        return msg.map { String(cString: $0) } ?? ""
    }

    /// Maps a libssh2 error code to the module's error, keeping libssh2's message.
    func error(_ what: String, _ rc: Int32) -> SSHError {
        let detail = "\(lastErrorMessage) [libssh2 \(rc)]"
        switch rc {
        case LIBSSH2_ERROR_SOCKET_DISCONNECT, LIBSSH2_ERROR_SOCKET_RECV, LIBSSH2_ERROR_SOCKET_SEND,
             LIBSSH2_ERROR_SOCKET_NONE, LIBSSH2_ERROR_CHANNEL_CLOSED:
            if let lost = SessionContext.of(raw)?.upstreamLoss?() {
                return SSHError(.disconnected, detail, lost)
            }
            return SSHError(.disconnected, detail, "The connection was closed by the server \(Self.when(what)).")
        case LIBSSH2_ERROR_TIMEOUT, LIBSSH2_ERROR_SOCKET_TIMEOUT:
            return SSHError(.timedOut, detail, "The server stopped answering \(Self.when(what)).")
        case LIBSSH2_ERROR_BANNER_RECV, LIBSSH2_ERROR_BANNER_SEND:
            return SSHError(.notSSH, detail, "The other side did not speak SSH \(Self.when(what)).")
        case LIBSSH2_ERROR_KEX_FAILURE, LIBSSH2_ERROR_METHOD_NOT_SUPPORTED:
            return SSHError(.protocolError, detail,
                            "No common algorithm with the server \(Self.when(what)) (libssh2 \(SSHLibrary.version)).")
        default:
            return SSHError(.protocolError, detail, "SSH failed \(Self.when(what)).")
        }
    }
}
