/// Checks many servers at once: resolves names off the loop, connects to every address without blocking, and reads
/// the SSH identification line, all from one epoll loop. Checking N servers takes about one timeout, not N.
public struct Checker: Sendable {
    /// How a run behaves.
    public struct Options: Sendable {
        /// Seconds each connection may take to connect and send its banner; also bounds each name lookup.
        public var timeout: Double
        /// Most sockets in flight at once; nil uses what the open-file limit allows.
        public var concurrency: Int?
        /// Most name lookups at once (each runs on its own thread).
        public var resolverThreads: Int

        /// Options; the defaults suit thousands of servers.
        public init(timeout: Double = 3, concurrency: Int? = nil, resolverThreads: Int = 16) {
            self.timeout = timeout
            self.concurrency = concurrency
            self.resolverThreads = resolverThreads
        }
    }

    /// File descriptors kept free for the rest of the process (the database, the terminal, logs).
    static let reservedDescriptors = 64

    /// The options of this checker.
    public let options: Options

    /// A checker; throws when an option is out of range.
    public init(options: Options = Options()) throws(ReachabilityError) {
        guard options.timeout > 0, options.timeout <= 3600 else {
            throw ReachabilityError(.invalidOption, "\(options.timeout)",
                                    "The timeout must be more than 0 and at most 3600 seconds.")
        }
        if let concurrency = options.concurrency, concurrency < 1 {
            throw ReachabilityError(.invalidOption, "\(concurrency)", "The concurrency must be at least 1.")
        }
        guard options.resolverThreads >= 1 else {
            throw ReachabilityError(.invalidOption, "\(options.resolverThreads)",
                                    "At least one resolver thread is needed.")
        }
        self.options = options
    }

    /// How many sockets may be in flight: the chosen concurrency, bounded by the open-file limit (whose soft value
    /// is raised to the hard one first).
    public var socketLimit: Int {
        let available = max(1, FileDescriptorLimit.raiseToHard() - Self.reservedDescriptors)
        return min(options.concurrency ?? available, available)
    }

    /// Checks every target and returns one outcome per target, in the targets' order. `onResult` runs on the
    /// calling thread as each outcome is known (for progress); the call blocks until all are known.
    public func check(_ targets: [CheckTarget], onResult: @escaping (CheckOutcome) -> Void = { _ in })
        throws(ReachabilityError) -> [CheckOutcome] {
        if targets.isEmpty { return [] }
        let loop = try CheckLoop(targets: targets, timeout: options.timeout, socketLimit: socketLimit,
                                 resolverThreads: options.resolverThreads, onResult: onResult)
        return try loop.run()
    }
}
