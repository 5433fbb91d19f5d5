import Synchronization

/// An in-memory terminal for tests: events are queued by the test, frames are kept for inspection.
public final class TestTerminal: Terminal {
    /// The current size; `resize(to:)` changes it and queues a `.resize` event.
    public private(set) var size: Size
    /// Every frame drawn, oldest first.
    public private(set) var frames: [Buffer] = []
    /// The cell runs each `draw` wrote (what a real backend would send), one list per frame.
    public private(set) var writes: [[CellRun]] = []
    /// The cursor after the last draw.
    public private(set) var cursor: Point?
    /// How often the bell rang.
    public private(set) var bells = 0
    /// How often the terminal was handed to a child.
    public private(set) var suspensions = 0
    /// How many times the process was stopped (Ctrl-Z).
    public private(set) var stops = 0
    /// True after `shutdown()`.
    public private(set) var isShutDown = false
    /// Whether the mouse wheel is reported (`setMouseReporting`), and every change asked for, in order.
    public private(set) var mouseReporting = false
    public private(set) var mouseChanges: [Bool] = []
    private var events: [InputEvent] = []
    private var previous: Buffer?
    private let wakes = TestWaker()

    /// A terminal of `size` with no pending input.
    public init(size: Size) { self.size = size }

    /// Queues input for the next polls.
    public func enqueue(_ events: InputEvent...) { self.events += events }

    /// Queues key presses.
    public func type(_ keys: Key...) { events += keys.map { .key($0) } }

    /// Changes the size and queues the `.resize` event a real terminal would report.
    public func resize(to newSize: Size) {
        size = newSize
        events.append(.resize(newSize))
    }

    /// The last frame drawn.
    public var screen: Buffer? { frames.last }

    /// How many times `waker.wake()` was called.
    public var wakeCount: Int { wakes.count.load(ordering: .relaxed) }

    /// Records the frame and the runs a real backend would write.
    public func draw(_ buffer: Buffer, cursor: Point?) throws {
        writes.append(buffer.changes(from: previous ?? Buffer(size: buffer.size)))
        frames.append(buffer)
        previous = buffer
        self.cursor = cursor
    }

    /// Returns the next queued event, or nil at once when none is queued.
    public func poll(timeout: Duration?) throws -> InputEvent? {
        events.isEmpty ? nil : events.removeFirst()
    }

    /// Counts wake-ups.
    public var waker: any TerminalWaker { wakes }

    /// Runs `body` and forgets the previous frame, as a real backend must redraw everything after a child.
    public func suspend<T>(_ body: () throws -> T) throws -> T {
        suspensions += 1
        defer { previous = nil }
        return try body()
    }

    /// Counts the stop as a suspension (`stops`) and forgets the previous frame, as after `fg`.
    public func stopProcess() throws {
        stops += 1
        previous = nil
    }

    /// Counts the bell.
    public func bell() { bells += 1 }

    /// Records the change.
    public func setMouseReporting(_ on: Bool) {
        mouseReporting = on
        mouseChanges.append(on)
    }

    /// Marks the terminal shut down.
    public func shutdown() { isShutDown = true }
}

private final class TestWaker: TerminalWaker {
    let count = Atomic<Int>(0)
    func wake() { count.add(1, ordering: .relaxed) }
}
