import Basics
import CLibSSH2
import Foundation

/// The relay's thread: passes over the session with its lock held (opens, every link, keepalive), then a poll
/// without it. Nothing here leaves this thread; channel pointers are used only inside the session's lock.
final class RelayLoop {
    let core: RelayCore
    var links: [RelayLink] = []
    /// Opens not started yet, oldest first.
    private var queue: [OpenRequest] = []
    /// The open libssh2 is working on (one per session). After its requester gave up (cancel, deadline) it is still
    /// driven to its end, since libssh2 would otherwise finish it as the next open; its channel is then closed.
    var opening: OpenRequest?
    /// With patch 0003 (`concurrentOpens`): the opens in flight, each with its channel still opening, oldest first,
    /// and the channels of opens given up before the server answered (libssh2 ends them when the answer comes).
    private var inFlight: [InFlight] = []
    private var abandoned: [OpaquePointer] = []
    struct InFlight {
        let request: OpenRequest
        let channel: OpaquePointer
    }
    /// Channels closed on our side whose server close has not arrived yet (freed later).
    private var parked: [OpaquePointer] = []
    var nextID = 0
    /// Remote forwards: the listeners, the request in progress, accepted channels waiting for a local socket.
    let remote = RemoteForwards()
    /// What closed links carried (published with the stats).
    private var closedTotals = ChannelRelay.Totals()
    private let keepaliveInterval: Int
    private var lastHeard = Date()

    /// Whether the libssh2 built here keeps several opens in flight per session (patch 0003); else one at a time.
    static let concurrentOpens = essh_libssh2_concurrent_opens() != 0
    /// Opens in flight at once on one session, at most (the rest wait in the queue). sshd holds a socket per open
    /// in flight (its connect to the target); DECISIONS, 2026-11-24 (several channel opens in flight).
    static let maxOpensInFlight = 500

    /// libssh2's own limit for waiting on one packet (its default), restored after each open.
    static let defaultReadTimeout = 60
    /// Each direction of a link buffers at most this much.
    static let bufferSize = 256 * 1024

    init(core: RelayCore) {
        self.core = core
        keepaliveInterval = core.session.keepaliveInterval
    }

    func run() {
        var failure: SSHError?
        while true {
            let stopping = core.shared.withLock { shared -> Bool in
                queue += shared.requests
                shared.requests.removeAll()
                remote.collect(from: &shared)
                return shared.stopping
            }
            if stopping { break }
            var again = false
            let outcome = core.session.state.withLock { (handle: inout SessionHandle) -> SSHError? in
                if handle.isClosed {
                    return SSHError(.disconnected, "session closed", "The connection to \(core.name) is closed.")
                }
                do throws(SSHError) {
                    again = try pass(&handle)
                    return nil
                } catch {
                    handle.markBroken()
                    return error
                }
            }
            publishStats()
            if let outcome {
                failure = outcome
                break
            }
            if again { continue }
            if let silent = waitForWork() {
                failure = silent
                core.session.state.withLock { $0.markBroken() }
                break
            }
        }
        finish(failure)
    }

    // MARK: - One pass, with the session's lock held

    /// Returns whether anything moved (then the loop comes back without polling).
    private func pass(_ handle: inout SessionHandle) throws(SSHError) -> Bool {
        let raw = handle.raw
        var progress = try driveOpens(raw)
        if try driveRemoteForwards(raw) { progress = true }
        for link in links {
            if try link.pump(raw) { progress = true }
        }
        for link in links where link.isDone {
            closedTotals.bytesOut += link.bytesOut
            closedTotals.bytesIn += link.bytesIn
            link.close()
            if let channel = link.releaseChannel() { release(channel) }
        }
        links.removeAll { $0.isDone }
        parked.removeAll { libssh2_channel_free($0) != LIBSSH2_ERROR_EAGAIN }
        // The links' reads may have brought answers to opens in flight: taken now, not after the next poll.
        if !inFlight.isEmpty || !abandoned.isEmpty, try driveConcurrentOpens(raw, start: false) { progress = true }
        if keepaliveInterval > 0 && remote.mayKeepalive(interval: keepaliveInterval) {
            var next: Int32 = 0
            let rc = libssh2_keepalive_send(raw, &next)
            if rc < 0 && rc != LIBSSH2_ERROR_EAGAIN {
                throw SessionIO(raw: raw, fd: handle.fd, cancel: nil, timeout: 1).error("sending a keepalive", rc)
            }
        }
        // Reading one channel can queue another's data inside libssh2, after that one was drained: look again
        // before polling a socket that may stay quiet (the read-loop stall).
        if !progress && links.contains(where: { $0.hasQueuedInput }) { progress = true }
        return progress
    }

    private func driveOpens(_ raw: OpaquePointer) throws(SSHError) -> Bool {
        // Queued opens whose caller gave up are answered at once.
        queue.removeAll { request in
            guard let why = gaveUp(request) else { return false }
            request.reply(.failure(why))
            return true
        }
        return Self.concurrentOpens ? try driveConcurrentOpens(raw, start: true) : try driveOneOpen(raw)
    }

    /// Without patch 0003 (dropped from the build): one open at a time through `libssh2_channel_direct_tcpip_ex`.
    private func driveOneOpen(_ raw: OpaquePointer) throws(SSHError) -> Bool {
        var progress = false
        if opening == nil, remote.listening == nil, !queue.isEmpty {
            let next = queue.removeFirst()
            opening = next
            // libssh2 ends an open whose answer does not come within its read timeout (and only then forgets it).
            libssh2_session_set_read_timeout(raw, max(1, Int(next.timeout.rounded(.up)) + 1))
        }
        guard let request = opening else { return false }
        if !request.isAnswered, let why = gaveUp(request) {
            request.reply(.failure(why))
            // Let libssh2 give up on it soon, so the next open need not wait for the server's late answer.
            libssh2_session_set_read_timeout(raw, 1)
        }
        let channel = libssh2_channel_direct_tcpip_ex(raw, request.host, Int32(request.port), "127.0.0.1", 65535)
        if let channel {
            opening = nil
            libssh2_session_set_read_timeout(raw, Self.defaultReadTimeout)
            progress = true
            if request.isAnswered {
                release(channel)
            } else {
                nextID += 1
                let link = RelayLink(id: nextID, host: request.host, port: request.port, channel: channel,
                                     descriptor: request.descriptor, bufferSize: Self.bufferSize,
                                     greeting: request.greeting)
                add(link)
                request.reply(.success(link.id))
            }
            return progress
        }
        let rc = libssh2_session_last_errno(raw)
        if rc == LIBSSH2_ERROR_EAGAIN { return progress }
        opening = nil
        libssh2_session_set_read_timeout(raw, Self.defaultReadTimeout)
        let io = SessionIO(raw: raw, fd: core.session.fd, cancel: nil, timeout: 1)
        switch rc {
        case LIBSSH2_ERROR_CHANNEL_FAILURE:
            request.reply(.failure(ChannelOpenFailure.error(relay: core.name, target: request.target,
                                                              libssh2Message: io.lastErrorMessage)))
        case LIBSSH2_ERROR_TIMEOUT:
            request.reply(.failure(ChannelOpenFailure.timedOut(relay: core.name, target: request.target,
                                                                 timeout: request.timeout)))
        default:
            let error = io.error("opening a connection to \(request.target)", rc)
            request.reply(.failure(error))
            throw error
        }
        return true
    }

    /// With patch 0003: every queued open started (up to `maxOpensInFlight`), each in flight with its own channel;
    /// the ones answered become links or failures, the ones given up are abandoned (libssh2 closes a late
    /// confirmation's channel). `start: false` only looks at the ones in flight (answers another read brought).
    private func driveConcurrentOpens(_ raw: OpaquePointer, start: Bool) throws(SSHError) -> Bool {
        var progress = false
        while start, remote.listening == nil, inFlight.count < Self.maxOpensInFlight, !queue.isEmpty {
            let next = queue.removeFirst()
            progress = true
            if let channel = essh_direct_tcpip_start(raw, next.host, Int32(next.port), "127.0.0.1", 65535) {
                inFlight.append(InFlight(request: next, channel: channel))
                continue
            }
            let rc = libssh2_session_last_errno(raw)
            let error = SessionIO(raw: raw, fd: core.session.fd, cancel: nil, timeout: 1)
                .error("opening a connection to \(next.target)", rc)
            next.reply(.failure(error))
            if rc != LIBSSH2_ERROR_ALLOC && rc != LIBSSH2_ERROR_INVAL && rc != LIBSSH2_ERROR_BAD_USE { throw error }
        }
        var waiting: [InFlight] = []
        var failure: SSHError?
        for (i, open) in inFlight.enumerated() {
            let request = open.request
            if failure != nil {
                waiting.append(contentsOf: inFlight[i...])
                break
            }
            if !request.isAnswered, let why = gaveUp(request) { request.reply(.failure(why)) }
            if request.isAnswered {
                abandon(open.channel)
                progress = true
                continue
            }
            let rc = essh_channel_open_poll(open.channel)
            if rc == LIBSSH2_ERROR_EAGAIN || rc == LIBSSH2_ERROR_TIMEOUT {
                // Still opening (libssh2's own read timeout does not end it: the request's deadline does).
                waiting.append(open)
                continue
            }
            progress = true
            if rc == 0 {
                nextID += 1
                let link = RelayLink(id: nextID, host: request.host, port: request.port, channel: open.channel,
                                     descriptor: request.descriptor, bufferSize: Self.bufferSize,
                                     greeting: request.greeting)
                add(link)
                request.reply(.success(link.id))
                continue
            }
            // The channel is freed by the poll.
            let io = SessionIO(raw: raw, fd: core.session.fd, cancel: nil, timeout: 1)
            if rc == LIBSSH2_ERROR_CHANNEL_FAILURE {
                request.reply(.failure(ChannelOpenFailure.error(relay: core.name, target: request.target,
                                                                  libssh2Message: io.lastErrorMessage)))
            } else {
                let error = io.error("opening a connection to \(request.target)", rc)
                request.reply(.failure(error))
                failure = error
            }
        }
        inFlight = waiting
        let before = abandoned.count
        abandoned.removeAll { essh_channel_open_abandon($0) != LIBSSH2_ERROR_EAGAIN }
        if abandoned.count != before { progress = true }
        if let failure { throw failure }
        return progress
    }

    /// Gives up an open in flight: libssh2 keeps it until the server's answer (a late confirmation is closed).
    private func abandon(_ channel: OpaquePointer) {
        if essh_channel_open_abandon(channel) == LIBSSH2_ERROR_EAGAIN { abandoned.append(channel) }
    }

    /// Why the caller of `request` no longer waits (cancelled, past its deadline), or nil.
    private func gaveUp(_ request: OpenRequest) -> SSHError? {
        if request.cancel?.isCancelled == true {
            return SSHError(.cancelled, "",
                            "Cancelled while \(core.name) was opening a connection to \(request.target).")
        }
        if Date() >= request.deadline {
            return ChannelOpenFailure.timedOut(relay: core.name, target: request.target, timeout: request.timeout)
        }
        return nil
    }

    /// Closes a channel without waiting for the server: freed now, or parked until its close arrives.
    func release(_ channel: OpaquePointer) {
        _ = libssh2_channel_close(channel)
        if libssh2_channel_free(channel) == LIBSSH2_ERROR_EAGAIN { parked.append(channel) }
    }

    // MARK: - Waiting, without the lock

    /// Polls the session's socket, the links' descriptors, the wake-up pipe and the pending opens' cancels until one
    /// is ready or a deadline (an open's, the keepalive's) comes. Returns an error when the server has been silent
    /// for three keepalive intervals (it would answer each keepalive).
    /// Linux's POLLRDHUP (the other side shut down writing), which Glibc declares only under _GNU_SOURCE.
    private static let peerClosed: Int16 = 0x2000

    private func waitForWork() -> SSHError? {
        let directions = core.session.state.withLock { handle in
            handle.isClosed ? 0 : libssh2_session_block_directions(handle.raw)
        }
        // With no link, open or remote forward nothing reads the session (libssh2 reads for a channel), so the
        // server's keepalive answers would stay in the socket and make every poll return at once: a busy loop.
        // Idle, the socket is watched for the server's close only (POLLRDHUP), and a dead peer shows as a failed
        // keepalive (TCP_USER_TIMEOUT); the answers are read with the next link.
        let idle = links.isEmpty && queue.isEmpty && opening == nil && inFlight.isEmpty && abandoned.isEmpty
            && remote.isIdle
        var events = idle ? Self.peerClosed : Int16(POLLIN) | Self.peerClosed
        if directions & LIBSSH2_SESSION_BLOCK_OUTBOUND != 0 { events |= Int16(POLLOUT) }
        var fds = [pollfd(fd: core.session.fd, events: events, revents: 0),
                   pollfd(fd: core.wake.readDescriptor, events: Int16(POLLIN), revents: 0)]
        for link in links { fds.append(pollfd(fd: link.descriptor, events: link.pollEvents, revents: 0)) }
        var pending = queue + inFlight.map(\.request).filter { !$0.isAnswered }
        if let opening, !opening.isAnswered { pending.append(opening) }
        for request in pending {
            fds.append(pollfd(fd: request.cancel?.pollDescriptor ?? -1, events: Int16(POLLIN), revents: 0))
        }
        var until = Date().addingTimeInterval(3600)
        for request in pending where request.deadline < until { until = request.deadline }
        // An open given up on is looked at each second, so libssh2's read timeout can end it.
        if opening != nil { until = min(until, Date().addingTimeInterval(1)) }
        let silenceLimit = Double(keepaliveInterval * 3 + 2)
        if keepaliveInterval > 0 {
            until = min(until, Date().addingTimeInterval(Double(keepaliveInterval)),
                        lastHeard.addingTimeInterval(silenceLimit))
        }
        let ms = Int32(max(0, min(until.timeIntervalSinceNow * 1000, 3_600_000)).rounded(.up))
        var one: Int32 = 1
        setsockopt(core.session.fd, Int32(IPPROTO_TCP), TCP_QUICKACK, &one, socklen_t(MemoryLayout<Int32>.size))
        let n = poll(&fds, nfds_t(fds.count), ms)
        if n > 0 && fds[0].revents != 0 {
            lastHeard = Date()
            // The server closed the connection (sshd never half-closes one): the session is over. Without this, a
            // socket at its end, or holding bytes no link reads, stays readable and the loop spins until a keepalive
            // fails, or for ever when none is sent.
            if fds[0].revents & (Self.peerClosed | Int16(POLLHUP) | Int16(POLLERR)) != 0 {
                return SSHError(.disconnected, "the session's socket was closed by the other side",
                                "\(core.name) closed the connection.")
            }
        }
        // Idle, the keepalive answers wait unread in the socket: silence is not counted then.
        if idle { lastHeard = Date() }
        if n > 0 && fds[1].revents != 0 { core.wake.drain() }
        if keepaliveInterval > 0 && Date().timeIntervalSince(lastHeard) > silenceLimit {
            return SSHError(.timedOut, "no answer to keepalives", """
                \(core.name) stopped answering (nothing for \(DurationText.text(silenceLimit, .number)) s, keepalives \
                unanswered).
                """)
        }
        return nil
    }

    // MARK: - The end

    /// Ends every link and open; records `failure` (the session died) for callers and what runs through it.
    private func finish(_ failure: SSHError?) {
        let stopped = failure
            ?? SSHError(.disconnected, "relay stopped", "The connection through \(core.name) is closed.")
        let leftover = core.shared.withLock { shared -> [OpenRequest] in
            shared.failure = failure
            shared.finished = true
            shared.stats.removeAll()
            defer { shared.requests.removeAll() }
            return shared.requests
        }
        for request in queue + leftover + inFlight.map(\.request) + (opening.map { [$0] } ?? []) {
            request.reply(.failure(stopped))
        }
        let leftoverListens = core.shared.withLock { shared -> [ListenRequest] in
            defer { shared.listens.removeAll(); shared.adoptions.removeAll() }
            for adoption in shared.adoptions { if let fd = adoption.descriptor { close(fd) } }
            return shared.listens
        }
        remote.answerAll(stopped, leftover: leftoverListens)
        queue.removeAll()
        opening = nil
        // Close the descriptors first: whatever reads their other ends sees end-of-file at once.
        for link in links { link.close() }
        core.session.state.withLock { handle in
            if !handle.isClosed {
                if failure == nil {
                    // Opens in flight are given up (nothing is sent for those the server has not answered; the
                    // session's end frees them).
                    for open in inFlight { _ = essh_channel_open_abandon(open.channel) }
                    for link in links { if let channel = link.releaseChannel() { release(channel) } }
                    for channel in remote.close(fd: handle.fd) { release(channel) }
                    parked.removeAll { libssh2_channel_free($0) != LIBSSH2_ERROR_EAGAIN }
                }
                // Channels left (a broken session's, or ones the server never closed) are freed with the session.
                libssh2_session_set_read_timeout(handle.raw, Self.defaultReadTimeout)
            }
            handle.relayed = false
        }
        links.removeAll()
        parked.removeAll()
        inFlight.removeAll()
        abandoned.removeAll()
        core.finished.signal()
    }

    /// Starts relaying `link` and counts it.
    func add(_ link: RelayLink) {
        links.append(link)
        closedTotals.linksMade += 1
        let made = closedTotals.linksMade
        core.shared.withLock {
            $0.stats[link.id] = link.stats
            $0.closedTotals.linksMade = made
        }
    }

    private func publishStats() {
        guard !links.isEmpty || core.shared.withLock({ !$0.stats.isEmpty }) else { return }
        let now = links.map(\.stats)
        let closed = closedTotals
        core.shared.withLock { shared in
            shared.closedTotals = closed
            shared.stats.removeAll()
            for s in now { shared.stats[s.id] = s }
        }
    }
}
