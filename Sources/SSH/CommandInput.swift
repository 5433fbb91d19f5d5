import CLibSSH2
import Foundation

/// What `run` does with the remote command's standard input.
public enum CommandInput: Sendable {
    /// Nothing: the remote side sees end-of-file at once (like `ssh -n`).
    case none
    /// Forwards this descriptor until its end-of-file, then sends EOF.
    case fileDescriptor(Int32)
    /// Sends these bytes, then EOF.
    case bytes([UInt8])
}

/// Feeds the command's standard input from a descriptor or bytes, honouring the channel's window (EAGAIN).
struct InputFeeder {
    private var fd: Int32 = -1
    private var pending: [UInt8] = []
    private var sourceDone = false
    private(set) var isDone = false

    init(_ input: CommandInput) {
        switch input {
        case .none:
            isDone = true
        case .bytes(let bytes):
            pending = bytes
            sourceDone = true
        case .fileDescriptor(let descriptor):
            fd = descriptor
        }
    }

    /// The descriptor to poll while waiting, when more input is wanted.
    var pollDescriptor: Int32? { !isDone && pending.isEmpty && !sourceDone ? fd : nil }

    /// Moves what it can; returns whether anything moved.
    mutating func feed(channel: OpaquePointer, io: SessionIO) throws(SSHError) -> Bool {
        var moved = false
        if pending.isEmpty && !sourceDone {
            var probe = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            if poll(&probe, 1, 0) > 0 {
                var chunk = [UInt8](repeating: 0, count: 64 * 1024)
                let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if n > 0 {
                    pending = Array(chunk[0..<n])
                } else if n == 0 || (errno != EAGAIN && errno != EINTR) {
                    sourceDone = true
                }
                moved = true
            }
        }
        while !pending.isEmpty {
            let n = pending.withUnsafeBytes {
                libssh2_channel_write_ex(channel, 0, $0.baseAddress?.assumingMemoryBound(to: CChar.self), $0.count)
            }
            if n == Int(LIBSSH2_ERROR_EAGAIN) { break }
            if n < 0 { throw io.error("sending the command's input", Int32(n)) }
            pending.removeFirst(n)
            moved = true
        }
        if pending.isEmpty && sourceDone {
            let rc = libssh2_channel_send_eof(channel)
            if rc == 0 { isDone = true; moved = true } else if rc != LIBSSH2_ERROR_EAGAIN {
                throw io.error("closing the command's input", rc)
            }
        }
        return moved
    }
}
