import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A second, short connection that only reads what a server offers: it sends a version line, reads the server's
/// version and its KEXINIT (both unencrypted) and closes, within one deadline. Used after libssh2 found no algorithm
/// in common, since libssh2 keeps the server's lists to itself.
enum KexInitProbe {
    /// The version line the probe announces; a server's log shows it beside the closed connection.
    static let clientVersion = "SSH-2.0-eSSH_algorithm_probe\r\n"

    /// The server's version line and KEXINIT at `address` (the address the failed session reached), or why not.
    static func fetch(address: String, port: Int, timeout: Double,
                      cancel: Cancellation?) throws(SSHError) -> (version: String, kexInit: KexInit) {
        let deadline = Date().addingTimeInterval(timeout)
        let (fd, _) = try SocketConnector.connect(host: address, port: port, timeout: timeout, cancel: cancel,
                                                  onStage: { _ in })
        defer { close(fd) }
        var pending = Array(clientVersion.utf8)[...]
        var reader = KexInitReader()
        var chunk = [UInt8](repeating: 0, count: 16384)
        while true {
            var fds = [pollfd(fd: fd, events: Int16(POLLIN) | (pending.isEmpty ? 0 : Int16(POLLOUT)), revents: 0),
                       pollfd(fd: cancel?.pollDescriptor ?? -1, events: Int16(POLLIN), revents: 0)]
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { throw timedOut(timeout) }
            let n = poll(&fds, 2, Int32(min(left * 1000, 3_600_000).rounded(.up)))
            if n < 0 && errno == EINTR { continue }
            if n == 0 { throw timedOut(timeout) }
            if fds[1].revents != 0 {
                throw SSHError(.cancelled, "probe", "Cancelled while reading the server's algorithms.")
            }
            if fds[0].revents & Int16(POLLOUT) != 0 && !pending.isEmpty {
                let sent = pending.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                if sent > 0 { pending = pending.dropFirst(sent) }
            }
            guard fds[0].revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 else { continue }
            let got = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if got < 0 && (errno == EAGAIN || errno == EINTR) { continue }
            if got <= 0 {
                throw SSHError(.disconnected, got == 0 ? "EOF" : String(cString: strerror(errno)),
                               "The server closed the connection before offering its algorithms.")
            }
            if case .done(let version, let kexInit) = try reader.feed(chunk[..<got]) { return (version, kexInit) }
        }
    }

    static func timedOut(_ timeout: Double) -> SSHError {
        SSHError(.timedOut, "probe", "The server did not offer its algorithms within \(timeout) s.")
    }
}
