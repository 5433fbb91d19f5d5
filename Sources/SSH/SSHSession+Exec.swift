import Basics
import CLibSSH2
import Foundation

/// Which remote stream a chunk of output came from.
public enum OutputStream: Sendable, Equatable {
    case stdout
    case stderr
}

extension SSHSession {
    /// Runs `command` on a new channel, streaming stdout and stderr to `output` as raw bytes as they arrive, and
    /// returns how it ended. `timeout` (seconds, nil for none) bounds the whole command; `cancel` stops it at once.
    /// Both streams are drained together, so a command writing megabytes to both never stalls.
    /// When the command does not finish (cancel, timeout, an error other than a broken connection), it is stopped on
    /// the server as `stop` says (INT, TERM, KILL; at most `stop.limit` seconds, before this returns) and the channel
    /// is closed; the thrown error's `detail` says what the stop saw.
    /// Commands on one session run one at a time (libssh2 allows one thread per session).
    public func run(_ command: String, input: CommandInput = .none, timeout: Double? = nil,
                    cancel: Cancellation? = nil, stop: StopEscalation = .standard,
                    output: (OutputStream, UnsafeRawBufferPointer) -> Void) throws(SSHError) -> CommandExit {
        try state.withLock { (session: inout SessionHandle) throws(SSHError) -> CommandExit in
            try session.run(command, input: input, timeout: timeout, cancel: cancel, stop: stop, output: output)
        }
    }

    /// Convenience for short commands: collects both streams in memory.
    public func capture(_ command: String, input: CommandInput = .none, timeout: Double? = nil,
                        cancel: Cancellation? = nil) throws(SSHError) -> (stdout: [UInt8], stderr: [UInt8],
                                                                        exit: CommandExit) {
        var out: [UInt8] = [], err: [UInt8] = []
        let exit = try run(command, input: input, timeout: timeout, cancel: cancel) { stream, bytes in
            if stream == .stdout { out.append(contentsOf: bytes) } else { err.append(contentsOf: bytes) }
        }
        return (out, err, exit)
    }

    /// Sends a keepalive if one is due and checks that the server has not closed or reset the connection (call it
    /// from an idle loop, as often as once a second: `run` does the same by itself while waiting). Throws
    /// `disconnected` once the connection is gone.
    public func keepalive() throws(SSHError) {
        try state.withLock { (session: inout SessionHandle) throws(SSHError) in try session.keepalive() }
    }
}

/// Commands on the libssh2 session, with the session's lock held (`SSHSession` calls them inside `state.withLock`).
extension SessionHandle {
    /// Window and packet sizes for new channels. 2 MiB (libssh2's default) measured steadier than larger windows:
    /// with 16 MiB a 200 MB `cat` stalled for seconds in about a third of the runs (bench/results/exec-*.md).
    static let channelWindow: UInt32 = 2 * 1024 * 1024
    static let channelPacket: UInt32 = 32768

    /// `SSHSession.run`.
    mutating func run(_ command: String, input: CommandInput, timeout: Double?, cancel: Cancellation?,
                      stop: StopEscalation,
                      output: (OutputStream, UnsafeRawBufferPointer) -> Void) throws(SSHError) -> CommandExit {
        try ensureOpen()
        reapClosedChannels()
        let deadline = timeout.map { Date().addingTimeInterval($0) }
        let io = SessionIO(raw: raw, fd: fd, cancel: cancel, timeout: Double(max(keepaliveInterval, 1) * 4))
        let channel = try openChannel(io: io)
        var finished = false
        defer { releaseChannel(channel, io: io, graceful: finished) }
        var started = false
        do throws(SSHError) {
            try startCommand(command, channel: channel, io: io, started: &started)
            let exit = try pump(channel: channel, io: io, input: input, deadline: deadline, timeout: timeout,
                                output: output)
            finished = true
            return exit
        } catch {
            if error.kind == .disconnected { markBroken() }
            // eSSH gives up on the command: make sure it does not go on running on the server.
            guard started else { throw error }
            let report = stopRemoteCommand(channel, stop)
            let detail = [error.detail, report.description].filter { !$0.isEmpty }.joined(separator: "; ")
            throw error.with(detail: detail)
        }
    }

    /// Sends the exec request and waits for its answer, setting `started` once the server accepted it. A cancel while
    /// waiting leaves the request possibly out and the command possibly running: the answer is then awaited a little
    /// longer (1 s, no cancel), so that a command that did start is known to have started and gets stopped; the
    /// cancel is thrown either way.
    private func startCommand(_ command: String, channel: OpaquePointer, io: SessionIO,
                              started: inout Bool) throws(SSHError) {
        let startup = { libssh2_channel_process_startup(channel, "exec", 4, command, UInt32(command.utf8.count)) }
        do throws(SSHError) {
            try io.call("starting the command", startup)
            started = true
        } catch where error.kind == .cancelled {
            let answer = SessionIO(raw: raw, fd: fd, cancel: nil, timeout: 1)
            started = (try? answer.call("starting the command", startup)) != nil
            throw error
        }
    }

    /// `SSHSession.keepalive`.
    mutating func keepalive() throws(SSHError) {
        try ensureOpen()
        var next: Int32 = 0
        let rc = libssh2_keepalive_send(raw, &next)
        if rc < 0 && rc != LIBSSH2_ERROR_EAGAIN {
            markBroken()
            throw SessionIO(raw: raw, fd: fd, cancel: nil, timeout: 1).error("sending a keepalive", rc)
        }
        if let reason = Self.peerGone(fd) {
            markBroken()
            throw SSHError(.disconnected, reason, "The server closed the connection.")
        }
    }

    /// Why the socket says the server is gone (it closed or reset the connection, or the network timed out), or nil.
    /// Seen without reading: bytes libssh2 has not read yet (the answers to an idle session's keepalives wait there)
    /// stay for it, and Linux reports the server's close behind them (POLLRDHUP).
    static func peerGone(_ fd: Int32) -> String? {
        let readHangUp: Int16 = 0x2000  // POLLRDHUP, which Glibc's module does not export
        var entry = pollfd(fd: fd, events: Int16(POLLIN) | readHangUp, revents: 0)
        guard poll(&entry, 1, 0) > 0 else { return nil }
        if entry.revents & Int16(POLLERR) != 0 {
            var code: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(fd, SOL_SOCKET, SO_ERROR, &code, &length)
            return code != 0 ? String(cString: strerror(code)) : "socket error"
        }
        if entry.revents & (readHangUp | Int16(POLLHUP)) != 0 { return "the server closed the connection" }
        return nil
    }

    // MARK: - Channel life

    mutating func openChannel(io: SessionIO) throws(SSHError) -> OpaquePointer {
        if relayed {
            throw SSHError(.library, "session relayed", """
                The connection to \(host) carries relayed connections (a jump host's): it runs no commands or shells \
                of its own.
                """)
        }
        while true {
            if let channel = libssh2_channel_open_ex(raw, "session", 7, Self.channelWindow, Self.channelPacket, nil, 0) {
                return channel
            }
            let rc = libssh2_session_last_errno(raw)
            guard rc == LIBSSH2_ERROR_EAGAIN else {
                if rc == LIBSSH2_ERROR_SOCKET_DISCONNECT || rc == LIBSSH2_ERROR_SOCKET_RECV || rc == LIBSSH2_ERROR_SOCKET_SEND {
                    markBroken()
                }
                let error = io.error("opening a channel", rc)
                if mayAskAgain(after: error, io: io) { continue }
                throw error
            }
            try io.waitOrThrow("opening a channel")
        }
    }

    /// Whether a refused channel is asked for again: only while the server may still be freeing one this session
    /// closed within the last 2 s (sshd's MaxSessions counts a session channel until it has reaped the shell or
    /// command behind it, a moment after the close, and meanwhile refuses with "connect failed: open failed"),
    /// then after 50 ms.
    private func mayAskAgain(after error: SSHError, io: SessionIO) -> Bool {
        guard let closed = lastChannelClosedAt, ContinuousClock.now - closed < .seconds(2),
              io.cancel?.isCancelled != true
        else { return false }
        switch ChannelOpenFailure.reason(of: error) {
        case .connectFailed, .administrativelyProhibited, .resourceShortage: break
        case .unknownChannelType, nil: return false
        }
        usleep(50_000)
        return true
    }

    /// Closes and frees a channel without letting a dead or slow server hold the caller for long. After a cancel
    /// or timeout the close is sent but the server's answer is not awaited (its late packets are dropped).
    mutating func releaseChannel(_ channel: OpaquePointer, io: SessionIO, graceful: Bool) {
        lastChannelClosedAt = .now
        if !isBroken {
            if graceful {
                let bounded = SessionIO(raw: raw, fd: fd, cancel: nil, timeout: 5)
                _ = try? bounded.call("closing the channel", allowNegative: true) { libssh2_channel_close(channel) }
            } else {
                _ = libssh2_channel_close(channel)
            }
        }
        // libssh2 frees a channel only after the server's CLOSE, which sshd sends when the remote process ends:
        // park it and free it later instead of waiting here.
        if libssh2_channel_free(channel) == LIBSSH2_ERROR_EAGAIN && !isBroken { closing.append(channel) }
    }

    /// Frees parked channels whose server side has closed by now.
    mutating func reapClosedChannels() {
        closing.removeAll { libssh2_channel_free($0) != LIBSSH2_ERROR_EAGAIN }
    }

    // MARK: - The I/O loop

    private func pump(channel: OpaquePointer, io: SessionIO, input: CommandInput, deadline: Date?, timeout: Double?,
                      output: (OutputStream, UnsafeRawBufferPointer) -> Void) throws(SSHError) -> CommandExit {
        let bufferSize = 256 * 1024
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: bufferSize, alignment: 16)
        defer { buffer.deallocate() }
        var feeder = InputFeeder(input)
        if feeder.isDone { try io.call("closing the command's input") { libssh2_channel_send_eof(channel) } }
        var nextKeepalive = Date().addingTimeInterval(Double(keepaliveInterval))

        while true {
            var progressed = false
            // Drain both streams: reading one can queue the other's data inside libssh2.
            for (streamID, stream) in [(Int32(0), OutputStream.stdout), (Int32(SSH_EXTENDED_DATA_STDERR), .stderr)] {
                while true {
                    let n = libssh2_channel_read_ex(channel, streamID, buffer.assumingMemoryBound(to: CChar.self),
                                                    bufferSize)
                    if n > 0 {
                        output(stream, UnsafeRawBufferPointer(start: buffer, count: n))
                        progressed = true
                        // A stream that never pauses never reaches the wait below, where a cancel is seen.
                        if io.cancel?.isCancelled == true {
                            throw SSHError(.cancelled, "", "The command was cancelled.")
                        }
                        continue
                    }
                    if n == 0 || n == Int(LIBSSH2_ERROR_EAGAIN) { break }
                    throw io.error("reading the command's output", Int32(n))
                }
            }
            if !feeder.isDone {
                if try feeder.feed(channel: channel, io: io) { progressed = true }
            }
            if libssh2_channel_eof(channel) != 0 {
                // Everything the server sent before EOF is queued already; one more pass drained it above.
                if !progressed { break }
                continue
            }
            if progressed { continue }
            if Self.hasQueuedData(channel) { continue }

            if keepaliveInterval > 0 && Date() >= nextKeepalive {
                var next: Int32 = 0
                let rc = libssh2_keepalive_send(raw, &next)
                if rc < 0 && rc != LIBSSH2_ERROR_EAGAIN { throw io.error("sending a keepalive", rc) }
                nextKeepalive = Date().addingTimeInterval(Double(max(next, 1)))
            }
            var waitUntil = keepaliveInterval > 0 ? nextKeepalive : Date.distantFuture
            if let deadline, deadline < waitUntil { waitUntil = deadline }
            switch io.wait(until: waitUntil, extra: feeder.pollDescriptor, forceRead: true) {
            case .ready, .extraReady:
                continue
            case .cancelled:
                throw SSHError(.cancelled, "", "The command was cancelled.")
            case .timedOut:
                if let deadline, Date() >= deadline {
                    let limit = DurationText.text(timeout ?? 0, .number)
                    throw SSHError(.commandTimedOut, "", "The command did not finish within \(limit) s "
                                   + "and was stopped.", remedy: .longerTimeout)
                }
            }
        }
        // The server sends exit-status before closing; wait for its close to read it.
        let closing = SessionIO(raw: raw, fd: fd, cancel: io.cancel, timeout: 10)
        try closing.call("closing the channel", allowNegative: true) { libssh2_channel_close(channel) }
        try closing.call("waiting for the command's exit status", allowNegative: true) {
            libssh2_channel_wait_closed(channel)
        }
        return exitOf(channel)
    }

    /// Whether libssh2 holds data for `channel` (either stream) that a read would return without the socket.
    /// Not `libssh2_poll_channel_read`: in libssh2 1.10 it gives up with an error (non-zero, so "yes") at the first
    /// queued packet shorter than 5 bytes, and the one-byte answers to keepalives stay queued for good — a loop
    /// trusting it spun at full CPU from the first keepalive on. The window query counts the bytes properly.
    static func hasQueuedData(_ channel: OpaquePointer) -> Bool {
        var queued: UInt = 0
        _ = libssh2_channel_window_read_ex(channel, &queued, nil)
        return queued > 0
    }

    func exitOf(_ channel: OpaquePointer) -> CommandExit {
        let signal = Self.exitSignal(channel, raw: raw)
        // libssh2 reports 0 when no exit-status came; only trust it without a signal.
        let status = libssh2_channel_get_exit_status(channel)
        return CommandExit(status: signal == nil ? status : nil, signal: signal)
    }
}
