import Foundation
import LocalProcess
import SSH
import Synchronization

/// The forwarder's accepting thread: one poll over the -L and -D listening sockets, the SOCKS clients still in their
/// handshake and a wake-up pipe. An accepted -L connection goes to the relay at once (an open that does not wait);
/// a SOCKS client is read without blocking until it names its target (10 s at most), then goes to the relay with its
/// success reply as the link's first bytes. Nothing here waits for the server, so the relay's thread and this one
/// never hold each other up.
final class AcceptLoop {
    struct Listener: Sendable {
        let fd: Int32
        let spec: ForwardSpec
    }

    /// What the forwarder gives the thread.
    struct Context: Sendable {
        let relay: ChannelRelay
        let openTimeout: Double
        let control: Control
        let failed: @Sendable (ForwardSpec, String) -> Void
    }

    /// Stopping the thread from the forwarder, and knowing it let go of its sockets.
    final class Control: Sendable {
        let wake: SelfPipe
        private let stopping = Mutex(false)
        private let running = Mutex(false)
        private let finished = DispatchSemaphore(value: 0)

        init() throws(SelfPipe.Failure) { wake = try SelfPipe() }

        var isStopping: Bool { stopping.withLock { $0 } }

        func started() { running.withLock { $0 = true } }

        func ended() {
            running.withLock { $0 = false }
            finished.signal()
        }

        /// Asks the thread to end and waits (at most 5 s) until it has closed its sockets.
        func stop() {
            let wasRunning = stopping.withLock { stopping -> Bool in
                defer { stopping = true }
                return !stopping
            }
            guard wasRunning, running.withLock({ $0 }) else { return }
            wake.wake()
            _ = finished.wait(timeout: .now() + 5)
        }
    }

    /// A SOCKS client in its handshake.
    private struct Client {
        let fd: Int32
        let spec: ForwardSpec
        var handshake = SOCKSHandshake()
        let deadline: Date
    }

    /// How long a SOCKS client may take to name its target.
    static let handshakeTime = 10.0

    private let context: Context
    private let listeners: [Listener]
    private var clients: [Client] = []

    init(context: Context, listeners: [Listener]) {
        self.context = context
        self.listeners = listeners
        context.control.started()
    }

    func run() {
        while !context.control.isStopping {
            var fds = [pollfd(fd: context.control.wake.readDescriptor, events: Int16(POLLIN), revents: 0)]
            fds += listeners.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }
            fds += clients.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }
            let next = clients.map(\.deadline).min()
            let ms = next.map { Int32(max(0, min($0.timeIntervalSinceNow * 1000 + 1, 60_000))) } ?? 60_000
            let n = poll(&fds, nfds_t(fds.count), ms)
            if n < 0 && errno != EINTR { break }
            if fds[0].revents != 0 { _ = context.control.wake.drain() }
            for (index, listener) in listeners.enumerated() where fds[1 + index].revents != 0 {
                accept(listener)
            }
            let base = 1 + listeners.count
            let ready = Set(clients.indices.filter { fds.indices.contains(base + $0) && fds[base + $0].revents != 0 }
                .map { clients[$0].fd })
            serveClients(ready: ready)
        }
        for listener in listeners { close(listener.fd) }
        for client in clients { close(client.fd) }
        clients.removeAll()
        context.control.ended()
    }

    private func accept(_ listener: Listener) {
        while true {
            let fd = Glibc.accept(listener.fd, nil, nil)
            guard fd >= 0 else { return }
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            var one: Int32 = 1
            setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            switch listener.spec.kind {
            case .local:
                guard let host = listener.spec.host, let port = listener.spec.hostPort else {
                    close(fd)
                    continue
                }
                let spec = listener.spec
                let failed = context.failed
                let target = ForwardSpec.address(host, port)
                context.relay.open(to: host, port: port, descriptor: fd, timeout: context.openTimeout) { result in
                    if case .failure(let error) = result { failed(spec, ForwardEvent.openFailure(error, target: target)) }
                }
            case .dynamic:
                clients.append(Client(fd: fd, spec: listener.spec, deadline: Date().addingTimeInterval(Self.handshakeTime)))
            case .remote:
                close(fd)
            }
        }
    }

    /// Reads the clients that sent something; drops the ones past their deadline.
    private func serveClients(ready: Set<Int32>) {
        let now = Date()
        var kept: [Client] = []
        for var client in clients {
            if !ready.contains(client.fd) {
                if now >= client.deadline {
                    close(client.fd)
                    context.failed(client.spec, "a SOCKS client named no target within "
                                   + "\(Int(Self.handshakeTime)) s; it was closed.")
                } else {
                    kept.append(client)
                }
                continue
            }
            var buffer = [UInt8](repeating: 0, count: 1024)
            let n = recv(client.fd, &buffer, buffer.count, Int32(MSG_PEEK))
            if n < 0 && (errno == EAGAIN || errno == EINTR) {
                kept.append(client)
                continue
            }
            guard n > 0 else {
                close(client.fd)
                continue
            }
            let step = client.handshake.step(Array(buffer[..<n]))
            if step.consumed > 0 { _ = recv(client.fd, &buffer, step.consumed, 0) }
            if !step.send.isEmpty { _ = send(client.fd, step.send, step.send.count, Int32(MSG_NOSIGNAL)) }
            switch step.result {
            case .needMore:
                kept.append(client)
            case .failed(let reason):
                close(client.fd)
                context.failed(client.spec, "a SOCKS request was refused: \(reason).")
            case .connect(let host, let port):
                connect(client, host: host, port: port)
            }
        }
        clients = kept
    }

    /// Hands the client to the relay, with the success reply as its link's first bytes; a failed open is answered
    /// with the SOCKS reply that says why (on a duplicate of the socket, since the relay closes its own).
    private func connect(_ client: Client, host: String, port: Int) {
        let spare = dup(client.fd)
        let handshake = client.handshake
        let spec = client.spec
        let failed = context.failed
        let target = ForwardSpec.address(host, port)
        context.relay.open(to: host, port: port, descriptor: client.fd, timeout: context.openTimeout,
                           greeting: handshake.reply(.succeeded)) { result in
            if case .failure(let error) = result, spare >= 0 {
                let reply = handshake.reply(ForwardEvent.socksReply(error))
                _ = send(spare, reply, reply.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
                failed(spec, ForwardEvent.openFailure(error, target: target))
            }
            if spare >= 0 { close(spare) }
        }
    }
}
