import CLibSSH2
import Foundation

/// One long-lived shell on a channel of the session, running commands one after another, each with its own output
/// (stdout and stderr apart, streamed as they come), exit status and working folder, delimited by the shell's
/// prompt (`ShellScript`). `SessionShell` is its public face: it opens one, replaces it when it ends, and falls back
/// to a channel per command when the server has no usable shell.
/// A value used only with the session's lock held: every method takes the `SessionHandle`, and the libssh2 channel
/// stays inside the handle (by id, as a `ShellChannel`'s does), so a shell used after the session closed gets
/// `disconnected`, never a freed channel.
struct CommandShell {
    /// What opening found.
    enum Opened {
        case ready(CommandShell)
        /// No usable POSIX shell (why, for the person).
        case unusable(String)
    }

    /// How a command ended.
    enum Ending: Equatable {
        /// The shell is back at its prompt: the command's status.
        case finished(CommandExit)
        /// The shell itself ended during the command (`exit`, `exec`, a fatal signal): its exit.
        case shellEnded(CommandExit)
        /// The shell had ended before the command was sent (while idle: a background job killed it): its exit.
        case endedBefore(CommandExit)
    }

    /// The shell's channel, kept in the session's handle (`SessionHandle.shell`).
    private let id: Int
    /// The shell's process ID, which is also its process group's (the interrupt signals the group).
    let pid: Int
    /// The working folder after the last command.
    private(set) var directory: String
    /// Whether the shell is still there to take commands.
    private(set) var isOpen = true
    private var lastStatus: Int32 = 0
    /// Output that came after the last prompt (a background job's), passed on with the next command's.
    private var late: (stdout: [UInt8], stderr: [UInt8]) = ([], [])

    private init(id: Int, pid: Int, directory: String) {
        self.id = id
        self.pid = pid
        self.directory = directory
    }

    /// Seconds a single network wait may take while a command runs (as `run` does for a channel per command).
    private static func networkTimeout(_ handle: SessionHandle) -> Double {
        Double(max(handle.keepaliveInterval, 1) * 4)
    }

    // MARK: - Opening

    /// Starts the shell on a new channel and checks that it answers as a POSIX shell within `timeout` seconds.
    /// Throws only when the connection failed or `cancel` fired; a server without a usable shell is `.unusable`.
    static func open(in handle: inout SessionHandle, timeout: Double,
                     cancel: Cancellation?) throws(SSHError) -> Opened {
        try handle.ensureOpen()
        handle.reapClosedChannels()
        let io = handle.io(cancel: cancel, timeout: timeout)
        let channel: OpaquePointer
        do throws(SSHError) {
            channel = try handle.openChannel(io: io)
        } catch {
            if error.kind == .disconnected || error.kind == .cancelled || handle.isBroken { throw error }
            return .unusable("the server did not open a channel for it: \(error.message)")
        }
        var ready = false
        var started = false
        var retired = false
        defer {
            if !ready && started && !retired { _ = retire(channel, handle: &handle) }
            if !ready && !started { handle.releaseChannel(channel, io: io, graceful: false) }
        }
        let bootstrap = ShellScript.bootstrap
        let rc: Int32
        do throws(SSHError) {
            rc = try io.call("starting the shell", allowNegative: true) {
                libssh2_channel_process_startup(channel, "exec", 4, bootstrap, UInt32(bootstrap.utf8.count))
            }
        } catch {
            if error.kind == .disconnected || error.kind == .cancelled || handle.isBroken { throw error }
            return .unusable("the server did not start it: \(error.message)")
        }
        if rc < 0 { return .unusable("the server refused to start it (\(io.lastErrorMessage))") }
        started = true

        let nonce = ShellScript.nonce()
        var scanner = ReplyScanner(nonce: nonce)
        guard try write(ShellScript.probe(nonce: nonce), channel: channel, handle: &handle, io: io) else {
            return .unusable("it ended at once")
        }
        // What the server said before the prompt (a forced command's text, rbash's "restricted"), for the reason.
        var said: [UInt8] = []
        let end = try pump(channel, &scanner, handle: &handle, io: io,
                           deadline: Date().addingTimeInterval(timeout)) { _, b in
            if said.count < 512 { said += b.prefix(512 - said.count) }
        }
        switch end {
        case .replied:
            guard let reply = scanner.reply, let pid = reply.pid, pid > 1 else {
                return .unusable("its prompt could not be read")
            }
            // Interrupts, quick commands and F8 need a channel beside the shell's: a server allowing one session
            // channel at a time (sshd's MaxSessions 1) gets a channel per command instead.
            do throws(SSHError) {
                let second = try handle.openChannel(io: io)
                handle.releaseChannel(second, io: io, graceful: false)
            } catch {
                if error.kind == .disconnected || error.kind == .cancelled || handle.isBroken { throw error }
                return .unusable("the server opens no second channel beside it (MaxSessions 1?), which stopping a "
                                 + "command and the quick commands need")
            }
            ready = true
            return .ready(CommandShell(id: handle.holdShell(channel), pid: pid, directory: reply.directory ?? ""))
        case .ended:
            retired = true
            let exit = retire(channel, handle: &handle)
            return .unusable("it ended at once (\(exit.phrase))" + quoted(said))
        case .cancelled:
            throw SSHError(.cancelled, "", "Cancelled while starting the shell.")
        case .timedOut:
            let limit = String(format: "%g", timeout)
            return .unusable("no POSIX shell answered within \(limit) s" + quoted(said))
        }
    }

    /// Ends a shell (or what a probe started that is not a usable one) and returns how it ended: end-of-file on its
    /// input (a shell or `cat` ends at it), then the close, waited for at most 2 s — the close carries the exit
    /// status, and a server counting its channels (MaxSessions) has freed this one before the session's next command
    /// asks for one. `channel` must no longer be in the handle's shells.
    private static func retire(_ channel: OpaquePointer, handle: inout SessionHandle) -> CommandExit {
        handle.lastChannelClosedAt = .now
        if !handle.isBroken {
            let waiter = handle.io(timeout: 2)
            _ = try? waiter.call("ending the shell", allowNegative: true) { libssh2_channel_send_eof(channel) }
            _ = try? waiter.call("closing the shell", allowNegative: true) { libssh2_channel_close(channel) }
            _ = try? waiter.call("closing the shell", allowNegative: true) { libssh2_channel_wait_closed(channel) }
        }
        let exit = handle.exitOf(channel)
        if libssh2_channel_free(channel) == LIBSSH2_ERROR_EAGAIN && !handle.isBroken {
            handle.closing.append(channel)
        }
        return exit
    }

    /// The first line of what the server said, for a reason: `: "This service allows sftp connections only."`.
    private static func quoted(_ bytes: [UInt8]) -> String {
        let line = String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline)
            .first { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        guard let line else { return "" }
        let text = line.trimmingCharacters(in: .whitespaces)
        return ": \"\(text.count > 160 ? String(text.prefix(160)) + "…" : text)\""
    }

    // MARK: - Running commands

    /// Runs `text` in the shell, streaming its output, until the shell is back at its prompt or ends. `timeout`
    /// (seconds, nil for none) bounds the command; `cancel` stops it. A command eSSH gives up on is interrupted as
    /// `stop` says (INT and TERM to the shell's process group, KILL to the processes it started), the shell
    /// surviving; if the command still has not ended when the escalation is over, the shell and everything it started
    /// are killed and `isOpen` becomes false. Either way the error (`cancelled` or `commandTimedOut`) is thrown after.
    mutating func run(_ text: String, timeout: Double?, cancel: Cancellation?, stop: StopEscalation,
                      handle: inout SessionHandle,
                      output: (OutputStream, UnsafeRawBufferPointer) -> Void) throws(SSHError) -> Ending {
        try handle.ensureOpen()
        guard !text.utf8.contains(0) else {
            throw SSHError(.io, "NUL in the command", "A command cannot contain a NUL character.")
        }
        guard isOpen else { return .endedBefore(CommandExit(status: nil, signal: nil)) }
        let channel = try handle.shell(id)
        handle.reapClosedChannels()
        let writer = handle.io(timeout: Self.networkTimeout(handle))
        // Anything the shell wrote while idle comes first; then whether it is still there.
        let ended = try drainIdle(channel, handle: &handle, io: writer)
        let pending = late
        late = ([], [])
        if !pending.stdout.isEmpty { pending.stdout.withUnsafeBytes { output(.stdout, $0) } }
        if !pending.stderr.isEmpty { pending.stderr.withUnsafeBytes { output(.stderr, $0) } }
        if ended { return .endedBefore(finishEnded(&handle)) }

        let nonce = ShellScript.nonce()
        var scanner = ReplyScanner(nonce: nonce)
        let line = ShellScript.command(text, nonce: nonce, previousStatus: lastStatus)
        // Without the cancel: a line half-sent would leave the shell waiting for its end.
        guard try Self.write(line, channel: channel, handle: &handle, io: writer) else {
            return .endedBefore(finishEnded(&handle))
        }
        let deadline = timeout.map { Date().addingTimeInterval($0) }
        let reader = handle.io(cancel: cancel, timeout: Self.networkTimeout(handle))
        let end = try Self.pump(channel, &scanner, handle: &handle, io: reader, deadline: deadline, output: output)
        switch end {
        case .replied:
            let reply = scanner.reply
            lastStatus = reply?.status ?? 0
            if let folder = reply?.directory { directory = folder }
            late = scanner.takeLate()
            return .finished(CommandExit(status: reply?.status, signal: nil))
        case .ended:
            scanner.flush(emit: output)
            return .shellEnded(finishEnded(&handle))
        case .cancelled, .timedOut:
            let report = interrupt(&scanner, stop, channel: channel, handle: &handle)
            if end == .cancelled {
                throw SSHError(.cancelled, report.description, "The command was cancelled.")
            }
            let limit = String(format: "%g", timeout ?? 0)
            throw SSHError(.commandTimedOut, report.description,
                           "The command did not finish within \(limit) s and was stopped.")
        }
    }

    /// Ends the shell: end-of-file on its input (an interactive shell exits at it) and the channel closed. Nothing
    /// to do once the session closed (libssh2 freed the channel with it).
    mutating func close(handle: inout SessionHandle) {
        guard isOpen else { return }
        isOpen = false
        guard let channel = handle.takeShell(id) else { return }
        if !handle.isBroken { _ = libssh2_channel_send_eof(channel) }
        handle.releaseChannel(channel, io: handle.io(timeout: 1), graceful: false)
    }

    /// Reads what the idle shell wrote since the last prompt (kept for the next command); true when it has ended.
    private mutating func drainIdle(_ channel: OpaquePointer, handle: inout SessionHandle,
                                    io: SessionIO) throws(SSHError) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 32 * 1024)
        for (stream, isStdout) in [(Int32(0), true), (Int32(SSH_EXTENDED_DATA_STDERR), false)] {
            while true {
                let n = buffer.withUnsafeMutableBytes {
                    libssh2_channel_read_ex(channel, stream, $0.baseAddress?.assumingMemoryBound(to: CChar.self),
                                            $0.count)
                }
                if n > 0 {
                    if isStdout { late.stdout += buffer[0..<n] } else { late.stderr += buffer[0..<n] }
                    continue
                }
                if n == 0 || n == Int(LIBSSH2_ERROR_EAGAIN) { break }
                throw Self.readFailure(&handle, io: io, Int32(n))
            }
        }
        return libssh2_channel_eof(channel) != 0
    }

    /// The shell ended: waits (at most 2 s) for the server's close, which carries its exit status, and frees the
    /// channel.
    private mutating func finishEnded(_ handle: inout SessionHandle) -> CommandExit {
        isOpen = false
        guard let channel = handle.takeShell(id) else { return CommandExit(status: nil, signal: nil) }
        return Self.retire(channel, handle: &handle)
    }

    /// The shell is given up without a goodbye (the connection failed, or it was killed): its channel is closed
    /// without waiting.
    private mutating func drop(_ handle: inout SessionHandle) {
        isOpen = false
        guard let channel = handle.takeShell(id) else { return }
        handle.releaseChannel(channel, io: handle.io(timeout: 1), graceful: false)
    }

    // MARK: - Interrupting

    /// Stops the running command without losing the shell, on `escalation`'s schedule: INT, then TERM, to the shell's
    /// process group (sent by `kill` on a second channel: a signal request on the shell's own channel is refused for
    /// root logins), then KILL to every process of the group but the shell. After each signal a line asking for a
    /// fresh prompt goes to the shell; the command has ended when that prompt comes. When time is up, the shell and
    /// its group are killed and the channel closed. Output meanwhile is dropped. Never throws.
    private mutating func interrupt(_ original: inout ReplyScanner, _ escalation: StopEscalation,
                                    channel: OpaquePointer, handle: inout SessionHandle) -> StopReport {
        var progress = StopProgress(escalation)
        guard !handle.isBroken else {
            drop(&handle)
            return StopReport(outcome: .notSignalled, sent: [])
        }
        let started = Date()
        let limit = started.addingTimeInterval(escalation.limit)
        let waiter = handle.io(timeout: max(escalation.limit, 0.1))
        var resyncs: [ReplyScanner] = []
        while true {
            switch Self.discard(channel, into: &original, &resyncs, handle: &handle) {
            case .failed:
                drop(&handle)
                return StopReport(outcome: .connectionFailed, sent: progress.sent)
            case .ended:
                _ = finishEnded(&handle)
                return StopReport(outcome: .ended, sent: progress.sent)
            case .open:
                break
            }
            let ended = resyncs.last?.isComplete ?? false
            switch progress.next(elapsed: Date().timeIntervalSince(started), commandEnded: ended) {
            case .ended:
                var last = resyncs[resyncs.count - 1]
                if let folder = last.reply?.directory { directory = folder }
                lastStatus = original.reply?.status ?? 130
                late = last.takeLate()
                return StopReport(outcome: .ended, sent: progress.sent)
            case .giveUp:
                abandon(&handle)
                return StopReport(outcome: .stillRunning, sent: progress.sent)
            case .send(let signal):
                let script = signal == "KILL" ? ShellScript.signalChildren(signal, pid: pid)
                    : ShellScript.signalGroup(signal, pid: pid)
                let left = limit.timeIntervalSinceNow
                if left > 0 {
                    do throws(SSHError) {
                        _ = try handle.run(script, input: .none, timeout: left, cancel: nil,
                                           stop: .closeOnly) { _, _ in }
                    } catch where error.kind == .disconnected || handle.isBroken {
                        drop(&handle)
                        return StopReport(outcome: .connectionFailed, sent: progress.sent)
                    } catch {
                        // Not sent in time: the schedule goes on.
                    }
                }
                let nonce = ShellScript.nonce()
                resyncs.append(ReplyScanner(nonce: nonce))
                do throws(SSHError) {
                    if try !Self.write(ShellScript.resync(nonce: nonce), channel: channel, handle: &handle,
                                       io: waiter) {
                        _ = finishEnded(&handle)
                        return StopReport(outcome: .ended, sent: progress.sent)
                    }
                } catch {
                    handle.markBroken()
                    drop(&handle)
                    return StopReport(outcome: .connectionFailed, sent: progress.sent)
                }
            case .wait(let until):
                if SessionHandle.hasQueuedData(channel) { continue }
                _ = waiter.wait(until: started.addingTimeInterval(until), forceRead: true)
            }
        }
    }

    private enum Discarded { case open, ended, failed }

    /// Reads what is queued on both streams (bounded per pass), feeding every scanner and dropping the output.
    private static func discard(_ channel: OpaquePointer, into original: inout ReplyScanner,
                                _ resyncs: inout [ReplyScanner], handle: inout SessionHandle) -> Discarded {
        var buffer = [UInt8](repeating: 0, count: 32 * 1024)
        var progressed = false
        for (id, stream) in [(Int32(0), OutputStream.stdout), (Int32(SSH_EXTENDED_DATA_STDERR), .stderr)] {
            for _ in 0..<64 {
                let n = buffer.withUnsafeMutableBytes {
                    libssh2_channel_read_ex(channel, id, $0.baseAddress?.assumingMemoryBound(to: CChar.self), $0.count)
                }
                if n > 0 {
                    progressed = true
                    buffer.withUnsafeBytes { all in
                        let chunk = UnsafeRawBufferPointer(rebasing: all[0..<n])
                        original.feed(stream, chunk) { _ in }
                        for i in resyncs.indices { resyncs[i].feed(stream, chunk) { _ in } }
                    }
                    continue
                }
                if n == 0 || n == Int(LIBSSH2_ERROR_EAGAIN) { break }
                handle.markBroken()
                return .failed
            }
        }
        return libssh2_channel_eof(channel) != 0 && !progressed ? .ended : .open
    }

    /// The command outlived the escalation: KILL to the shell's whole group (so nothing it started runs on), then the
    /// channel is closed. The next command gets a fresh shell.
    private mutating func abandon(_ handle: inout SessionHandle) {
        if !handle.isBroken {
            _ = try? handle.run(ShellScript.signalGroup("KILL", pid: pid), input: .none, timeout: 2, cancel: nil,
                                stop: .closeOnly) { _, _ in }
        }
        drop(&handle)
    }

    // MARK: - Channel I/O

    enum PumpEnd { case replied, ended, cancelled, timedOut }

    /// Reads both streams into `scanner`, passing the command's output on, until the prompt is complete, the shell's
    /// output ends, `deadline` passes or `io.cancel` fires. Both streams are drained together, so a command writing
    /// megabytes to both never stalls; keepalives go out while waiting.
    private static func pump(_ channel: OpaquePointer, _ scanner: inout ReplyScanner, handle: inout SessionHandle,
                             io: SessionIO, deadline: Date?,
                             output: (OutputStream, UnsafeRawBufferPointer) -> Void) throws(SSHError) -> PumpEnd {
        let size = 256 * 1024
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
        defer { buffer.deallocate() }
        let interval = handle.keepaliveInterval
        var nextKeepalive = Date().addingTimeInterval(Double(interval))
        while true {
            var progressed = false
            for (id, stream) in [(Int32(0), OutputStream.stdout), (Int32(SSH_EXTENDED_DATA_STDERR), .stderr)] {
                while true {
                    let n = libssh2_channel_read_ex(channel, id, buffer.assumingMemoryBound(to: CChar.self), size)
                    if n > 0 {
                        scanner.feed(stream, UnsafeRawBufferPointer(start: buffer, count: n)) { output(stream, $0) }
                        progressed = true
                        if scanner.isComplete { return .replied }
                        // A stream that never pauses never reaches the wait below, where a cancel is seen.
                        if io.cancel?.isCancelled == true { return .cancelled }
                        continue
                    }
                    if n == 0 || n == Int(LIBSSH2_ERROR_EAGAIN) { break }
                    throw readFailure(&handle, io: io, Int32(n))
                }
            }
            if libssh2_channel_eof(channel) != 0 {
                if !progressed { return .ended }
                continue
            }
            if progressed || SessionHandle.hasQueuedData(channel) { continue }
            if interval > 0 && Date() >= nextKeepalive {
                var next: Int32 = 0
                let rc = libssh2_keepalive_send(handle.raw, &next)
                if rc < 0 && rc != LIBSSH2_ERROR_EAGAIN {
                    handle.markBroken()
                    throw io.error("sending a keepalive", rc)
                }
                nextKeepalive = Date().addingTimeInterval(Double(max(next, 1)))
            }
            var until = interval > 0 ? nextKeepalive : Date.distantFuture
            if let deadline, deadline < until { until = deadline }
            switch io.wait(until: until, forceRead: true) {
            case .ready, .extraReady:
                continue
            case .cancelled:
                return .cancelled
            case .timedOut:
                if let deadline, Date() >= deadline { return .timedOut }
            }
        }
    }

    /// Writes all of `text` to the shell's input. False when the shell's channel is closed (the shell is gone).
    private static func write(_ text: String, channel: OpaquePointer, handle: inout SessionHandle,
                              io: SessionIO) throws(SSHError) -> Bool {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let n = bytes.withUnsafeBytes {
                libssh2_channel_write_ex(channel, 0, $0.baseAddress?.assumingMemoryBound(to: CChar.self), $0.count)
            }
            if n > 0 {
                bytes = bytes.dropFirst(n)
            } else if n == Int(LIBSSH2_ERROR_EAGAIN) || n == 0 {
                try io.waitOrThrow("sending a command to the shell")
            } else if n == Int(LIBSSH2_ERROR_CHANNEL_CLOSED) || n == Int(LIBSSH2_ERROR_CHANNEL_EOF_SENT) {
                return false
            } else {
                throw readFailure(&handle, io: io, Int32(n), "sending a command to the shell")
            }
        }
        return true
    }

    /// A failed read or write: the connection is gone unless libssh2 says otherwise.
    private static func readFailure(_ handle: inout SessionHandle, io: SessionIO, _ rc: Int32,
                                    _ what: String = "reading the shell's output") -> SSHError {
        let error = io.error(what, rc)
        if error.kind == .disconnected { handle.markBroken() }
        return error
    }
}
