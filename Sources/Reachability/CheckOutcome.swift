import Basics

/// The result of checking one target.
public struct CheckOutcome: Sendable, Equatable {
    /// The position of the target in the list given to `Checker.check`.
    public var index: Int
    /// The target.
    public var target: CheckTarget
    /// What was found.
    public var status: CheckStatus
    /// Milliseconds the TCP connection took, when it was made.
    public var latencyMs: Double?
    /// The first line the server sent, printable ASCII only, when one came.
    public var banner: String?
    /// Why it is not online, in words (nil when online).
    public var error: String?
    /// The address that gave this result, when the name resolved.
    public var address: String?
    /// The jump host the check went through (the last hop of the server's chain, by name, else its host): the
    /// banner was read through it and the status is what it saw. Nil for a direct check.
    public var via: String?

    /// An outcome.
    public init(index: Int, target: CheckTarget, status: CheckStatus, latencyMs: Double? = nil, banner: String? = nil,
                error: String? = nil, address: String? = nil, via: String? = nil) {
        self.index = index
        self.target = target
        self.status = status
        self.latencyMs = latencyMs
        self.banner = banner
        self.error = error
        self.address = address
        self.via = via
    }
}
