import Basics
import Foundation

/// Before libssh2 reads the server's identification, eSSH reads past what may precede it (RFC 4253 §4.2 allows
/// other lines) under Basics.SSHIdentification's limits, bounded by the connect timeout and cancellable at once.
/// libssh2 itself reads such lines without any limit and, with bytes always arriving, never returns to poll: a peer
/// streaming text without line ends held eSSH at 100% CPU past every timeout and cancel. Here the socket is only
/// peeked (MSG_PEEK) until a whole line is there; lines that are not the identification are dropped, and the
/// identification is left for libssh2.
enum IdentificationWait {
    static func skipPreamble(fd: Int32, host: String, port: Int, timeout: Double,
                             cancel: Cancellation?) throws(SSHError) {
        let deadline = Date().addingTimeInterval(timeout)
        let name = port == 22 ? host : "\(host):\(port)"
        var linesBefore = 0
        var buffer = [UInt8](repeating: 0, count: SSHIdentification.maxLineLength + 1)
        var lastPeek = -1
        while true {
            var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: cancel?.pollDescriptor ?? -1, events: Int16(POLLIN), revents: 0)]
            let left = deadline.timeIntervalSinceNow
            if left <= 0 {
                throw SSHError(.timedOut, "no identification", """
                    \(name) sent no SSH identification within \(DurationText.text(timeout, .number)) s\
                    \(linesBefore > 0 ? " (only \(CountText.text(linesBefore, "other line")))" : ""): it may not be an SSH server, \
                    or it is overloaded.
                    """)
            }
            let ready = poll(&fds, 2, Int32(min(left * 1000, 3_600_000).rounded(.up)))
            if ready < 0 && errno == EINTR { continue }
            if fds[1].revents != 0 { throw SSHError(.cancelled, "", "Cancelled while waiting for \(name) to identify itself.") }
            if ready == 0 { continue }
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_PEEK)) }
            if n < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                let reason = String(cString: strerror(errno))
                throw SSHError(.disconnected, reason, "The connection to \(name) failed before it identified itself: \(reason).")
            }
            switch SSHIdentification.scan(Array(buffer[0..<n]), linesBefore: linesBefore, ended: n == 0) {
            case .found(_, let offset, _):
                try drop(offset, fd: fd, name: name)
                return
            case .refused(let reason, let firstLine):
                throw SSHError(.notSSH, "not SSH: \(reason)", """
                    \(name) does not speak SSH: \(reason)\(firstLine.isEmpty ? "" : " (it began “\(firstLine.prefix(60))”)"). \
                    Check the host and port.
                    """)
            case .needMore(let consumable, let lines):
                if consumable > 0 {
                    try drop(consumable, fd: fd, name: name)
                    linesBefore += lines
                    lastPeek = -1
                } else {
                    // Peeked bytes keep the socket readable: without new bytes, wait a little instead of spinning.
                    if n == lastPeek { usleep(5_000) }
                    lastPeek = n
                }
            }
        }
    }

    /// Reads and discards exactly `count` bytes that were peeked (lines before the identification).
    private static func drop(_ count: Int, fd: Int32, name: String) throws(SSHError) {
        var left = count
        var sink = [UInt8](repeating: 0, count: min(max(count, 1), 65536))
        while left > 0 {
            let n = sink.withUnsafeMutableBytes { recv(fd, $0.baseAddress, min(left, $0.count), 0) }
            if n < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            if n <= 0 {
                throw SSHError(.disconnected, "", "The connection to \(name) closed before it identified itself.")
            }
            left -= n
        }
    }
}
