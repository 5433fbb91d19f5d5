import Basics
import CLibSSH2
import Dispatch
import Foundation
import LocalProcess
import Synchronization

/// The one owner of a logged-in session's channels that carry bytes to local descriptors (a jump host's connections
/// to the next hop; later `-L`/`-D` tunnels and `essh proxy`). One thread per relayed session runs a poll loop over
/// the session's socket, every link's local descriptor and a wake-up pipe; it is the only thread using the session
/// while it relays (it takes the session's lock for each pass and polls without it), so libssh2's one thread per
/// session holds without a thread per channel.
///
/// A link is a channel plus a local descriptor (a socket, non-blocking): bytes flow both ways through bounded
/// buffers, end-of-file both ways (the channel's EOF shuts the descriptor's write side; the descriptor's EOF sends
/// the channel's EOF), and the link closes when both sides are done. When the session dies every link's descriptor
/// is closed at once, so whatever reads the other end sees end-of-file instead of hanging.
///
/// While a relay runs, the session opens no other channels (`run`, shells): libssh2's own open keeps one channel-open
/// in progress per session, and an open begun elsewhere would finish the relay's. With eSSH's libssh2 (patch 0003,
/// `opensSideBySide`) the relay keeps many opens in flight at once, each in its own channel; otherwise one at a time.
public final class ChannelRelay: Sendable {
    /// Whether opens are in flight side by side (eSSH's libssh2, patch 0003): an open to a silent target then holds
    /// only itself, not the session. Otherwise they go one at a time.
    public static var opensSideBySide: Bool { RelayLoop.concurrentOpens }

    /// The relayed session.
    public let session: SSHSession
    /// How messages name the relayed server ("bastion", or its host).
    public let name: String
    let core: RelayCore

    /// What one link carried so far.
    public struct LinkStats: Sendable, Equatable {
        public let id: Int
        /// What the relayed server was asked to reach.
        public let host: String
        public let port: Int
        /// Bytes from the local descriptor to the channel, and from the channel to the descriptor.
        public var bytesOut: Int
        public var bytesIn: Int
    }

    /// Starts relaying `session` on a thread of its own. `name` is how messages call the server (default: its host).
    public init(session: SSHSession, name: String? = nil) throws(SSHError) {
        self.session = session
        self.name = name ?? session.host
        let wake: SelfPipe
        do throws(SelfPipe.Failure) {
            wake = try SelfPipe()
        } catch {
            throw SSHError(.io, "pipe: \(error.reason)", "Cannot open the relay's wake-up pipe (\(error.reason)).")
        }
        try session.state.withLock { (handle: inout SessionHandle) throws(SSHError) in
            try handle.ensureOpen()
            guard !handle.relayed else {
                throw SSHError(.library, "relayed twice", "The connection to \(session.host) is relayed already.")
            }
            handle.relayed = true
        }
        let core = RelayCore(session: session, name: self.name, wake: wake)
        self.core = core
        let started = PlainThread.start {
            let loop = RelayLoop(core: core)
            loop.run()
        }
        guard started else {
            session.state.withLock { $0.relayed = false }
            throw SSHError(.io, "pthread_create failed", "Cannot start the thread that relays \(self.name)'s channels.")
        }
    }

    deinit { stop() }

    /// Opens a `direct-tcpip` channel to `host:port` on the relayed server and joins it to `descriptor` (a socket;
    /// made non-blocking). The relay owns the descriptor from this call on: it closes it when the link ends, or at
    /// once when the open fails. Opens are in flight side by side (up to `RelayLoop.maxOpensInFlight`, then queued;
    /// one at a time without patch 0003, see `opensSideBySide`); each has its own `timeout` (seconds, from this call)
    /// and `cancel`. Returns the link's id (see `links`).
    @discardableResult
    public func open(to host: String, port: Int, descriptor: Int32, timeout: Double,
                     cancel: Cancellation? = nil) throws(SSHError) -> Int {
        let request = OpenRequest(host: host, port: port, descriptor: descriptor, timeout: timeout, cancel: cancel)
        enqueue(request)
        request.done.wait()
        return try request.result().get()
    }

    /// Queues the open and gives the request its answer at once when the relay is stopped (the descriptor closes).
    func enqueue(_ request: OpenRequest) {
        _ = fcntl(request.descriptor, F_SETFL, fcntl(request.descriptor, F_GETFL) | O_NONBLOCK)
        let refused = core.shared.withLock { shared -> SSHError? in
            if let failure = shared.failure { return failure }
            if shared.stopping || shared.finished {
                return SSHError(.disconnected, "relay stopped", "The connection through \(name) is closed.")
            }
            shared.requests.append(request)
            return nil
        }
        if let refused {
            request.reply(.failure(refused))
            return
        }
        core.wake.wake()
    }

    /// The links open now, with their byte counts (from any thread).
    public var links: [LinkStats] {
        core.shared.withLock { $0.stats.values.sorted { $0.id < $1.id } }
    }

    /// The number of links open now.
    public var openLinkCount: Int { core.shared.withLock { $0.stats.count } }

    /// Why the relay ended on its own (the session died); nil while it runs or after `stop`.
    public var failure: SSHError? { core.shared.withLock { $0.failure } }

    /// Whether the relay's thread still runs.
    public var isRunning: Bool { core.shared.withLock { !$0.finished } }

    /// Ends every link (their descriptors close), answers queued opens, and waits (at most 5 s) for the thread to
    /// let go of the session. The session stays connected; the caller disconnects it. Idempotent.
    public func stop() {
        let already = core.shared.withLock { shared -> Bool in
            defer { shared.stopping = true }
            return shared.finished
        }
        guard !already else { return }
        core.wake.wake()
        _ = core.finished.wait(timeout: .now() + 5)
    }

    /// A text for the connection's loss as seen by what runs through it (nil while the relay is fine).
    var lossDescription: String? {
        core.shared.withLock { shared in
            shared.failure.map { "The connection to \(name) was lost: \($0.situation)" }
        }
    }
}

/// What the caller's thread and the relay's thread share.
final class RelayCore: Sendable {
    let session: SSHSession
    let name: String
    let wake: SelfPipe
    let shared = Mutex(Shared())
    /// Signalled once when the thread has let go of the session.
    let finished = DispatchSemaphore(value: 0)

    struct Shared {
        var requests: [OpenRequest] = []
        var stopping = false
        var finished = false
        var failure: SSHError?
        var stats: [Int: ChannelRelay.LinkStats] = [:]
        /// What closed links carried, and how many links were made (`ChannelRelay.totals`).
        var closedTotals = ChannelRelay.Totals()
        /// Remote forwards asked for, and local sockets for the channels they brought (ChannelRelay+Forwarding).
        var listens: [ListenRequest] = []
        var adoptions: [Adoption] = []
    }

    init(session: SSHSession, name: String, wake: SelfPipe) {
        self.session = session
        self.name = name
        self.wake = wake
    }
}

/// One queued open: its parameters, and the answer the relay gives once.
final class OpenRequest: Sendable {
    let host: String
    let port: Int
    let descriptor: Int32
    let timeout: Double
    let deadline: Date
    let cancel: Cancellation?
    /// Bytes written to the descriptor before any of the channel's (a SOCKS reply); empty for most opens.
    let greeting: [UInt8]
    /// Told the answer as it is given (on the relay's thread), for callers that do not wait (`open(…completion:)`).
    let completion: (@Sendable (Result<Int, SSHError>) -> Void)?
    let done = DispatchSemaphore(value: 0)
    private let answer = Mutex<Result<Int, SSHError>?>(nil)

    init(host: String, port: Int, descriptor: Int32, timeout: Double, cancel: Cancellation?,
         greeting: [UInt8] = [], completion: (@Sendable (Result<Int, SSHError>) -> Void)? = nil) {
        self.host = host
        self.port = port
        self.descriptor = descriptor
        self.timeout = timeout
        deadline = Date().addingTimeInterval(timeout)
        self.cancel = cancel
        self.greeting = greeting
        self.completion = completion
    }

    var target: String { ChannelOpenFailure.target(host: host, port: port) }

    /// Gives the answer (the first one only) and wakes the caller. A failure closes the descriptor.
    func reply(_ result: Result<Int, SSHError>) {
        let first = answer.withLock { answer -> Bool in
            guard answer == nil else { return false }
            answer = result
            return true
        }
        guard first else { return }
        if case .failure = result { close(descriptor) }
        completion?(result)
        done.signal()
    }

    var isAnswered: Bool { answer.withLock { $0 != nil } }

    func result() -> Result<Int, SSHError> {
        answer.withLock { $0 } ?? .failure(SSHError(.library, "no answer", "The relay gave no answer."))
    }
}
