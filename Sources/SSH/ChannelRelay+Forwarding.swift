import Dispatch
import Foundation
import Synchronization

/// What the relay offers port forwarding beside `open`: opens that do not wait (an accepting loop hands many
/// connections to one relay without a thread each), totals that count closed links too, and remote forwards
/// (`tcpip-forward`: the server listens and opens a `forwarded-tcpip` channel per connection it accepts).
extension ChannelRelay {
    /// What every link carried since the relay started, the closed ones included.
    public struct Totals: Sendable, Equatable {
        /// Bytes from local descriptors to channels, and from channels to local descriptors.
        public var bytesOut = 0
        public var bytesIn = 0
        /// Links made (opened or adopted) so far, and open now.
        public var linksMade = 0
        public var linksOpen = 0

        public init() {}
    }

    /// Opens a `direct-tcpip` channel as `open(to:port:descriptor:timeout:cancel:)` does, without waiting: the
    /// answer goes to `completion`, called once on the relay's thread (or on this one when the relay has stopped),
    /// which must not block nor call the relay. `greeting` is written to the descriptor before any byte of the
    /// channel (a SOCKS proxy's success reply). The relay owns the descriptor from this call on; on failure it is
    /// closed before `completion` runs (dup it first to write a reply of your own).
    public func open(to host: String, port: Int, descriptor: Int32, timeout: Double, cancel: Cancellation? = nil,
                     greeting: [UInt8] = [], completion: @escaping @Sendable (Result<Int, SSHError>) -> Void) {
        enqueue(OpenRequest(host: host, port: port, descriptor: descriptor, timeout: timeout, cancel: cancel,
                            greeting: greeting, completion: completion))
    }

    /// Every link's bytes so far, closed links included, and the number of links made and open.
    public var totals: Totals {
        core.shared.withLock { shared in
            var totals = shared.closedTotals
            for link in shared.stats.values {
                totals.bytesOut += link.bytesOut
                totals.bytesIn += link.bytesIn
            }
            totals.linksOpen = shared.stats.count
            return totals
        }
    }

    /// Asks the server to listen on `address:port` (`tcpip-forward`; port 0: the server picks one, see
    /// `RemoteForward.port`) and waits for its answer, at most `timeout` seconds. Each connection the server then
    /// accepts there arrives as a channel, handed to `onConnection` on the relay's thread (it must not block: connect
    /// elsewhere, then `adopt` or `refuse`). The listener ends with the relay. A refusal is a sentence naming the
    /// address.
    public func listen(address: String, port: Int, timeout: Double,
                       onConnection: @escaping @Sendable (ForwardedConnection) -> Void) throws(SSHError)
        -> RemoteForward
    {
        let request = ListenRequest(address: address, port: port, timeout: timeout, onConnection: onConnection)
        let refused = core.shared.withLock { shared -> SSHError? in
            if let failure = shared.failure { return failure }
            if shared.stopping || shared.finished {
                return SSHError(.disconnected, "relay stopped", "The connection through \(name) is closed.")
            }
            shared.listens.append(request)
            return nil
        }
        if let refused { throw refused }
        core.wake.wake()
        request.done.wait()
        return try request.result().get()
    }
}

/// A port the server listens on for us (`tcpip-forward`).
public struct RemoteForward: Sendable, Equatable {
    /// The bind address as asked ("localhost", "" for every address, an address).
    public let address: String
    /// The port asked for (0: any) and the one the server listens on.
    public let requestedPort: Int
    public let port: Int
}

/// A connection the server accepted on a remote forward: a channel held by the relay until a local socket is joined
/// to it (`adopt`) or it is closed (`refuse`). Each is answered once; later calls do nothing.
public final class ForwardedConnection: Sendable {
    /// The remote forward it came in on.
    public let forward: RemoteForward
    let token: Int
    private let core: RelayCore
    private let answered = Mutex(false)

    init(forward: RemoteForward, token: Int, core: RelayCore) {
        self.forward = forward
        self.token = token
        self.core = core
    }

    /// Joins the channel to `descriptor` (a connected socket; made non-blocking). The relay owns the descriptor from
    /// here; `host:port` is what the link is called in `links`.
    public func adopt(descriptor: Int32, host: String, port: Int) {
        guard answer() else { return }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        post(Adoption(token: token, descriptor: descriptor, host: host, port: port))
    }

    /// Closes the channel (the local connect failed).
    public func refuse() {
        guard answer() else { return }
        post(Adoption(token: token, descriptor: nil, host: "", port: 0))
    }

    private func answer() -> Bool {
        answered.withLock { done in
            defer { done = true }
            return !done
        }
    }

    private func post(_ adoption: Adoption) {
        let taken = core.shared.withLock { shared -> Bool in
            guard !shared.finished else { return false }
            shared.adoptions.append(adoption)
            return true
        }
        if taken {
            core.wake.wake()
        } else if let fd = adoption.descriptor {
            close(fd)
        }
    }
}

/// A local socket for an accepted forwarded channel (nil: close the channel).
struct Adoption: Sendable {
    let token: Int
    let descriptor: Int32?
    let host: String
    let port: Int
}

/// One queued `tcpip-forward` request and the answer the relay gives once.
final class ListenRequest: Sendable {
    let address: String
    let port: Int
    let timeout: Double
    let deadline: Date
    let onConnection: @Sendable (ForwardedConnection) -> Void
    let done = DispatchSemaphore(value: 0)
    private let answer = Mutex<Result<RemoteForward, SSHError>?>(nil)

    init(address: String, port: Int, timeout: Double, onConnection: @escaping @Sendable (ForwardedConnection) -> Void) {
        self.address = address
        self.port = port
        self.timeout = timeout
        deadline = Date().addingTimeInterval(timeout)
        self.onConnection = onConnection
    }

    /// `address:port` as messages write it (`*` for every address).
    var spot: String {
        ChannelOpenFailure.target(host: address.isEmpty ? "*" : address, port: port)
    }

    func reply(_ result: Result<RemoteForward, SSHError>) {
        let first = answer.withLock { answer -> Bool in
            guard answer == nil else { return false }
            answer = result
            return true
        }
        if first { done.signal() }
    }

    var isAnswered: Bool { answer.withLock { $0 != nil } }

    func result() -> Result<RemoteForward, SSHError> {
        answer.withLock { $0 } ?? .failure(SSHError(.library, "no answer", "The relay gave no answer."))
    }
}
