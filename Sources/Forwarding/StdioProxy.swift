import Foundation
import SSH

/// `essh proxy` / `-W`: one `direct-tcpip` channel joined to two local descriptors (stdin and stdout, pipes as a
/// ProxyCommand gets them). The relay joins a channel to one socket, so a socket pair stands between: the relay owns
/// one end, this loop moves bytes between the other end and the two descriptors. Nothing else is written to `output`.
public enum StdioProxy {
    /// How the proxy ended.
    public enum Ending: Sendable, Equatable {
        /// The channel ended (the target closed), or `output`'s reader went away.
        case closed
        /// Stopped by `cancel`.
        case cancelled
    }

    /// Opens a channel to `host:port` through `relay` (waits for the server's answer: an error names the target)
    /// and joins it to `input` and `output` until the target closes the connection or `output`'s reader goes away.
    /// The end of `input` is passed on as the channel's end-of-file, and what the target still sends is written.
    public static func run(relay: ChannelRelay, host: String, port: Int, input: Int32, output: Int32,
                           timeout: Double, cancel: Cancellation) throws(SSHError) -> Ending {
        var pair: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0 else {
            throw SSHError(.io, String(cString: strerror(errno)), "Cannot make a socket pair for the proxy.")
        }
        let mine = pair[0]
        defer { close(mine) }
        try relay.open(to: host, port: port, descriptor: pair[1], timeout: timeout, cancel: cancel)
        var inputOpen = true
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            var fds = [pollfd(fd: mine, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: inputOpen ? input : -1, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: cancel.pollDescriptor, events: Int16(POLLIN), revents: 0)]
            let n = poll(&fds, 3, -1)
            if n < 0 {
                if errno == EINTR { continue }
                return .closed
            }
            if cancel.isCancelled { return .cancelled }
            if fds[0].revents != 0 {
                let got = read(mine, &buffer, buffer.count)
                if got == 0 { return .closed }
                if got < 0 {
                    if errno == EAGAIN || errno == EINTR { continue }
                    return .closed
                }
                guard writeAll(output, buffer, got) else { return .closed }
            }
            if inputOpen && fds[1].revents != 0 {
                let got = read(input, &buffer, buffer.count)
                if got > 0 {
                    guard sendAll(mine, buffer, got) else { return .closed }
                } else if got == 0 || (errno != EAGAIN && errno != EINTR) {
                    inputOpen = false
                    shutdown(mine, Int32(SHUT_WR))
                }
            }
        }
    }

    private static func sendAll(_ fd: Int32, _ buffer: [UInt8], _ count: Int) -> Bool {
        var done = 0
        while done < count {
            let n = buffer.withUnsafeBytes { send(fd, $0.baseAddress! + done, count - done, Int32(MSG_NOSIGNAL)) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return false }
            done += n
        }
        return true
    }

    private static func writeAll(_ fd: Int32, _ buffer: [UInt8], _ count: Int) -> Bool {
        var done = 0
        while done < count {
            let n = buffer.withUnsafeBytes { write(fd, $0.baseAddress! + done, count - done) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return false }
            done += n
        }
        return true
    }
}
