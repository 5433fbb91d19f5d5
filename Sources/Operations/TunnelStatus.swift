/// What one supervised tunnel is doing, with its figures: what the Tunnels screen draws and `essh forward NAME`
/// prints. A value, taken by `TunnelSupervisor.snapshot()`.
public struct TunnelStatus: Sendable, Equatable {
    public enum State: Sendable, Equatable {
        /// Not running.
        case stopped
        /// Connecting and setting the forward up; `attempt` 0 is the first start, then the reconnects.
        case starting(attempt: Int)
        /// The forward listens and serves connections.
        case up
        /// The session dropped (or could not be made); attempt `attempt` comes in `seconds`.
        case reconnecting(seconds: Int, attempt: Int, reason: String)
        /// It cannot start and trying again would not help (a port in use, a refused host key); the sentence says
        /// why.
        case failed(String)

        /// The state in a few words: "up", "reconnecting in 3 s (attempt 2)", "failed: …".
        public var text: String {
            switch self {
            case .stopped: return "stopped"
            case .starting(let attempt): return attempt == 0 ? "starting" : "starting (attempt \(attempt))"
            case .up: return "up"
            case .reconnecting(let seconds, let attempt, _): return "reconnecting in \(seconds) s (attempt \(attempt))"
            case .failed(let reason): return "failed: \(reason)"
            }
        }

        /// Whether the supervisor is keeping it up (starting, up, reconnecting).
        public var isRunning: Bool {
            switch self {
            case .starting, .up, .reconnecting: return true
            case .stopped, .failed: return false
            }
        }
    }

    public var id: TunnelID
    public var state: State
    /// Connections open now, and made since the tunnel was started (over all its sessions).
    public var openConnections: Int
    public var connections: Int
    /// Bytes from here to the server's side and back, since the tunnel was started.
    public var bytesOut: Int
    public var bytesIn: Int
    /// Bytes per second each way, over the last sample (about a second).
    public var rateOut: Double
    public var rateIn: Double
    /// Where it listens ("127.0.0.1:5432", or the server's address for -R), once up.
    public var listening: String?

    public init(id: TunnelID, state: State = .stopped, openConnections: Int = 0, connections: Int = 0,
                bytesOut: Int = 0, bytesIn: Int = 0, rateOut: Double = 0, rateIn: Double = 0,
                listening: String? = nil) {
        self.id = id
        self.state = state
        self.openConnections = openConnections
        self.connections = connections
        self.bytesOut = bytesOut
        self.bytesIn = bytesIn
        self.rateOut = rateOut
        self.rateIn = rateIn
        self.listening = listening
    }
}
