import CLibSSH2
import Foundation

/// The relay thread's remote forwards: `tcpip-forward` requests (one at a time, never beside a channel open, as
/// libssh2 keeps one of each in progress per session), the listeners granted, and channels the server opened on them
/// that wait for the caller's local socket. Used only on the relay's thread, inside the session's lock.
final class RemoteForwards {
    struct Listener {
        let pointer: OpaquePointer
        let forward: RemoteForward
        let onConnection: @Sendable (ForwardedConnection) -> Void
    }

    var waiting: [ListenRequest] = []
    var listening: ListenRequest?
    var listeners: [Listener] = []
    /// Accepted channels by token, until `adopt` or `refuse` comes.
    var pending: [Int: OpaquePointer] = [:]
    var adoptions: [Adoption] = []
    var nextToken = 0
    /// When the relay started, and whether it has sent a keepalive since.
    private let started = Date()
    private(set) var keepalivesSent = false

    /// libssh2 queues the server's answer to each keepalive (a request failure, as sshd answers requests it does
    /// not know) and never reads it; `tcpip-forward` then takes the oldest answer in the queue for its own, so one
    /// keepalive sent before a remote forward makes the server seem to refuse it, and every later answer is one
    /// behind. So keepalives wait while a remote forward is asked for, and do not start during the first interval
    /// (when a forwarder asks for its remote forwards); a remote forward asked for later is refused (`driveListen`).
    func mayKeepalive(interval: Int) -> Bool {
        guard !keepalivesSent else { return listening == nil && waiting.isEmpty }
        guard listening == nil, waiting.isEmpty, Date().timeIntervalSince(started) >= Double(interval) else {
            return false
        }
        keepalivesSent = true
        return true
    }

    /// Takes what callers asked for since the last pass.
    func collect(from shared: inout RelayCore.Shared) {
        waiting += shared.listens
        shared.listens.removeAll()
        adoptions += shared.adoptions
        shared.adoptions.removeAll()
    }

    /// Answers every request left with `error` and closes the descriptors of adoptions not taken.
    func answerAll(_ error: SSHError, leftover: [ListenRequest]) {
        for request in waiting + leftover + (listening.map { [$0] } ?? []) { request.reply(.failure(error)) }
        for adoption in adoptions { if let fd = adoption.descriptor { Glibc.close(fd) } }
        waiting.removeAll()
        listening = nil
        adoptions.removeAll()
    }

    /// On a clean stop: the server stops listening. Returns the channels still waiting, to be closed.
    func close(fd: Int32) -> [OpaquePointer] {
        for listener in listeners {
            // libssh2 sends the cancel and frees the listener; EAGAIN means the packet is not out yet.
            for _ in 0..<50 {
                guard libssh2_channel_forward_cancel(listener.pointer) == LIBSSH2_ERROR_EAGAIN else { break }
                var p = pollfd(fd: fd, events: Int16(POLLOUT | POLLIN), revents: 0)
                _ = poll(&p, 1, 20)
            }
        }
        listeners.removeAll()
        defer { pending.removeAll() }
        return Array(pending.values)
    }
}

extension RelayLoop {
    /// Drives the `tcpip-forward` request in progress, takes the channels the server opened on the listeners, and
    /// joins the ones whose local socket came. Returns whether anything moved.
    func driveRemoteForwards(_ raw: OpaquePointer) throws(SSHError) -> Bool {
        var progress = try driveListen(raw)
        for listener in remote.listeners {
            while let channel = libssh2_channel_forward_accept(listener.pointer) {
                progress = true
                remote.nextToken += 1
                remote.pending[remote.nextToken] = channel
                listener.onConnection(ForwardedConnection(forward: listener.forward, token: remote.nextToken,
                                                          core: core))
            }
        }
        let adoptions = remote.adoptions
        remote.adoptions.removeAll()
        for adoption in adoptions {
            progress = true
            guard let channel = remote.pending.removeValue(forKey: adoption.token) else {
                if let fd = adoption.descriptor { Glibc.close(fd) }
                continue
            }
            guard let fd = adoption.descriptor else {
                release(channel)
                continue
            }
            nextID += 1
            add(RelayLink(id: nextID, host: adoption.host, port: adoption.port, channel: channel, descriptor: fd,
                          bufferSize: Self.bufferSize))
        }
        return progress
    }

    private func driveListen(_ raw: OpaquePointer) throws(SSHError) -> Bool {
        if remote.listening == nil, opening == nil, !remote.waiting.isEmpty {
            let next = remote.waiting.removeFirst()
            if remote.keepalivesSent {
                next.reply(.failure(SSHError(.library, "tcpip-forward after a keepalive", """
                    A remote forward on \(next.spot) must be asked for when the connection to \(core.name) starts \
                    relaying, before its first keepalive (libssh2 would take a keepalive's answer for the server's).
                    """)))
                return true
            }
            remote.listening = next
        }
        guard let request = remote.listening else { return false }
        if !request.isAnswered && Date() >= request.deadline {
            request.reply(.failure(SSHError(.timedOut, "tcpip-forward timed out", """
                \(core.name) did not answer the request to listen on \(request.spot) within \
                \(Int(request.timeout.rounded(.up))) s.
                """)))
        }
        var bound: Int32 = 0
        let listener = libssh2_channel_forward_listen_ex(raw, request.address, Int32(request.port), &bound, 128)
        if let listener {
            remote.listening = nil
            if request.isAnswered {
                _ = libssh2_channel_forward_cancel(listener)
                return true
            }
            let forward = RemoteForward(address: request.address, requestedPort: request.port, port: Int(bound))
            remote.listeners.append(RemoteForwards.Listener(pointer: listener, forward: forward,
                                                            onConnection: request.onConnection))
            request.reply(.success(forward))
            return true
        }
        let rc = libssh2_session_last_errno(raw)
        if rc == LIBSSH2_ERROR_EAGAIN { return false }
        remote.listening = nil
        switch rc {
        case LIBSSH2_ERROR_REQUEST_DENIED:
            request.reply(.failure(SSHError(.refused, "tcpip-forward denied", """
                \(core.name) refused to listen on \(request.spot) for us: its sshd forbids remote forwarding \
                (AllowTcpForwarding, PermitListen), the port is in use there, or a port below 1024 needs root.
                """)))
        case LIBSSH2_ERROR_TIMEOUT:
            request.reply(.failure(SSHError(.timedOut, "tcpip-forward timed out", """
                \(core.name) did not answer the request to listen on \(request.spot).
                """)))
        default:
            let error = SessionIO(raw: raw, fd: core.session.fd, cancel: nil, timeout: 1)
                .error("asking to listen on \(request.spot)", rc)
            request.reply(.failure(error))
            throw error
        }
        return true
    }
}
