import CLibSSH2
import Foundation

/// One channel joined to one local descriptor, pumped by the relay's thread with the session's lock held. Bytes
/// move through two bounded buffers; each side's end-of-file is passed on once the bytes before it are; the link is
/// done when both directions have ended, or either side broke.
final class RelayLink {
    let id: Int
    let host: String
    let port: Int
    let descriptor: Int32
    private var channel: OpaquePointer?
    private let toLocal: RelayBuffer
    private let toRemote: RelayBuffer
    /// The channel's end-of-file was seen (and nothing of it is left inside libssh2).
    private var remoteEnded = false
    /// The descriptor's write side was shut after the channel's end-of-file.
    private var localShut = false
    /// The descriptor read end-of-file.
    private var localEnded = false
    /// The channel's end-of-file was sent after the descriptor's.
    private var eofSent = false
    /// A side failed (reset, closed channel): the link ends without passing on what is left.
    private var broken = false
    private var descriptorClosed = false
    private(set) var bytesOut = 0
    private(set) var bytesIn = 0

    /// `greeting` goes to the descriptor before the channel's bytes (a SOCKS reply); it is not counted as relayed.
    init(id: Int, host: String, port: Int, channel: OpaquePointer, descriptor: Int32, bufferSize: Int,
         greeting: [UInt8] = []) {
        self.id = id
        self.host = host
        self.port = port
        self.channel = channel
        self.descriptor = descriptor
        toLocal = RelayBuffer(capacity: max(bufferSize, greeting.count))
        toRemote = RelayBuffer(capacity: bufferSize)
        if !greeting.isEmpty {
            let room = toLocal.writable()
            greeting.withUnsafeBytes { room.copyMemory(from: $0) }
            toLocal.produced(greeting.count)
        }
        // A direct-tcpip channel carries no stderr; should a server send some, drop it rather than let it queue.
        libssh2_channel_handle_extended_data2(channel, LIBSSH2_CHANNEL_EXTENDED_DATA_IGNORE)
    }

    var stats: ChannelRelay.LinkStats {
        ChannelRelay.LinkStats(id: id, host: host, port: port, bytesOut: bytesOut, bytesIn: bytesIn)
    }

    var isDone: Bool { broken || (localShut && eofSent) }

    /// What to poll the descriptor for: readable while there is room to take its bytes, writable while bytes wait.
    var pollEvents: Int16 {
        var events: Int16 = 0
        if !localEnded && toRemote.freeSpace > 0 { events |= Int16(POLLIN) }
        if !toLocal.isEmpty { events |= Int16(POLLOUT) }
        return events
    }

    /// Whether libssh2 holds data for this channel that a read would return now, with room to take it.
    var hasQueuedInput: Bool {
        guard let channel, !remoteEnded, !broken, toLocal.freeSpace > 0 else { return false }
        return SessionHandle.hasQueuedData(channel)
    }

    /// Moves what can move now, both ways. Throws only for the session's failures (the socket); a failed channel or
    /// descriptor ends this link alone. Returns whether anything moved.
    func pump(_ raw: OpaquePointer) throws(SSHError) -> Bool {
        guard let channel, !broken else { return false }
        var progress = false
        // Channel → buffer, until libssh2 has nothing more (EAGAIN) or the buffer is full.
        while !remoteEnded && toLocal.freeSpace > 0 {
            let room = toLocal.writable()
            let n = libssh2_channel_read_ex(channel, 0, room.baseAddress?.assumingMemoryBound(to: CChar.self),
                                            room.count)
            if n > 0 {
                toLocal.produced(n)
                bytesIn += n
                progress = true
                continue
            }
            if n == Int(LIBSSH2_ERROR_EAGAIN) { break }
            if n == 0 || n == Int(LIBSSH2_ERROR_CHANNEL_CLOSED) {
                if libssh2_channel_eof(channel) != 0 || n != 0 {
                    remoteEnded = true
                    progress = true
                }
                break
            }
            try failure(raw, Int32(n), "reading a relayed connection")
            return true
        }
        // Buffer → descriptor.
        while !toLocal.isEmpty {
            let bytes = toLocal.readable
            let n = send(descriptor, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL))
            if n > 0 {
                toLocal.consumed(n)
                progress = true
                continue
            }
            if n < 0 && (errno == EAGAIN || errno == EINTR) { break }
            broken = true
            return true
        }
        if remoteEnded && toLocal.isEmpty && !localShut {
            shutdown(descriptor, Int32(SHUT_WR))
            localShut = true
            progress = true
        }
        // Descriptor → buffer.
        while !localEnded && toRemote.freeSpace > 0 {
            let room = toRemote.writable()
            let n = read(descriptor, room.baseAddress, room.count)
            if n > 0 {
                toRemote.produced(n)
                progress = true
                continue
            }
            if n == 0 {
                localEnded = true
                progress = true
                break
            }
            if errno == EAGAIN || errno == EINTR { break }
            broken = true
            return true
        }
        // Buffer → channel (a write refused for want of window or socket room is retried with the same bytes).
        while !toRemote.isEmpty {
            let bytes = toRemote.readable
            let n = libssh2_channel_write_ex(channel, 0, bytes.baseAddress?.assumingMemoryBound(to: CChar.self),
                                             bytes.count)
            if n > 0 {
                toRemote.consumed(n)
                bytesOut += n
                progress = true
                continue
            }
            if n == Int(LIBSSH2_ERROR_EAGAIN) || n == 0 { break }
            if n == Int(LIBSSH2_ERROR_CHANNEL_CLOSED) || n == Int(LIBSSH2_ERROR_CHANNEL_EOF_SENT) {
                broken = true
                return true
            }
            try failure(raw, Int32(n), "writing to a relayed connection")
            return true
        }
        if localEnded && toRemote.isEmpty && !eofSent {
            let rc = libssh2_channel_send_eof(channel)
            if rc == 0 {
                eofSent = true
                progress = true
            } else if rc != LIBSSH2_ERROR_EAGAIN {
                broken = true
                return true
            }
        }
        return progress
    }

    /// A channel error: the session's failures are thrown (every link ends); others end this link.
    private func failure(_ raw: OpaquePointer, _ rc: Int32, _ what: String) throws(SSHError) {
        switch rc {
        case LIBSSH2_ERROR_SOCKET_DISCONNECT, LIBSSH2_ERROR_SOCKET_RECV, LIBSSH2_ERROR_SOCKET_SEND,
             LIBSSH2_ERROR_SOCKET_NONE, LIBSSH2_ERROR_TIMEOUT, LIBSSH2_ERROR_SOCKET_TIMEOUT,
             LIBSSH2_ERROR_DECRYPT, LIBSSH2_ERROR_PROTO:
            throw SessionIO(raw: raw, fd: -1, cancel: nil, timeout: 1).error(what, rc)
        default:
            broken = true
        }
    }

    /// Closes the local descriptor (once).
    func close() {
        guard !descriptorClosed else { return }
        descriptorClosed = true
        Glibc.close(descriptor)
    }

    /// Gives up the channel to be closed and freed (once).
    func releaseChannel() -> OpaquePointer? {
        defer { channel = nil }
        return channel
    }
}
