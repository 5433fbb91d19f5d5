import Transfer

/// The Files screen's copies: one runs at a time, the rest wait their turn; a paused one waits for `p` again.
struct TransferQueue: Sendable, Equatable {
    struct Item: Sendable, Equatable {
        enum State: Sendable, Equatable {
            case waiting, running, pausing, paused, cancelling
            case finished(FilesTransferEnd)

            var isActive: Bool { self == .running || self == .pausing || self == .cancelling }
        }

        var id: Int
        var request: FilesTransferRequest
        /// `3 files → web1:/srv/`, for the queue's line.
        var label: String
        var state = State.waiting
        var progress: TransferProgress?
        /// The files that did not arrive, with why (one line each).
        var problems: [String] = []
        var filesArrived = 0
    }

    private(set) var items: [Item] = []
    private var nextId = 1

    /// Queues a copy; its id.
    mutating func add(_ request: FilesTransferRequest, label: String) -> Int {
        defer { nextId += 1 }
        items.append(Item(id: nextId, request: request, label: label))
        return nextId
    }

    /// The copy running now (or stopping).
    var active: Item? { items.first { $0.state.isActive } }

    /// The next waiting copy, when none is running: marked running, returned to start.
    mutating func startNext() -> Item? {
        guard active == nil, let index = items.firstIndex(where: { $0.state == .waiting }) else { return nil }
        items[index].state = .running
        return items[index]
    }

    /// The most recent paused copy, queued again to resume.
    mutating func resumeLast() -> Item? {
        guard let index = items.lastIndex(where: { $0.state == .paused }) else { return nil }
        items[index].state = .waiting
        items[index].request.resume = true
        return items[index]
    }

    mutating func change(_ id: Int, _ change: (inout Item) -> Void) {
        guard let index = items.firstIndex(where: { $0.id == id }) else { return }
        change(&items[index])
    }

    /// Forgets the finished copies (the queue's lines fill up otherwise).
    mutating func clearFinished() {
        items.removeAll { if case .finished = $0.state { return true } else { return false } }
    }

    /// Lines the screen shows: the running one, the waiting and paused ones, then the last finished few.
    var shown: [Item] {
        let open = items.filter { if case .finished = $0.state { return false } else { return true } }
        let finished = items.filter { if case .finished = $0.state { return true } else { return false } }
        return open + finished.suffix(max(0, 3 - open.count))
    }
}
