import CLibSSH2
import Foundation

extension SessionHandle {
    /// Stops the command running on `channel` that eSSH gave up on, following `escalation` (INT, TERM, KILL with
    /// short waits between), before the caller closes the channel. Output arriving meanwhile is read and dropped.
    /// Never throws and never takes longer than `escalation.limit` (plus one pass of reading): a dead server costs
    /// that much at most.
    mutating func stopRemoteCommand(_ channel: OpaquePointer, _ escalation: StopEscalation) -> StopReport {
        var progress = StopProgress(escalation)
        guard !isBroken else { return StopReport(outcome: .notSignalled, sent: []) }
        // The caller's cancel has fired already (that is why we are here): this io waits on the socket alone.
        let io = SessionIO(raw: raw, fd: fd, cancel: nil, timeout: escalation.limit)
        let started = Date()
        let bufferSize = 32 * 1024
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: bufferSize, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            guard discardOutput(channel, buffer: buffer, size: bufferSize) else {
                return StopReport(outcome: .connectionFailed, sent: progress.sent)
            }
            let elapsed = Date().timeIntervalSince(started)
            switch progress.next(elapsed: elapsed, commandEnded: Self.remoteCommandEnded(channel, raw: raw)) {
            case .ended:
                return StopReport(outcome: .ended, sent: progress.sent)
            case .giveUp:
                return StopReport(outcome: .stillRunning, sent: progress.sent)
            case .send(let name):
                guard sendSignal(name, channel: channel, io: io, until: started + escalation.limit) else {
                    return StopReport(outcome: .connectionFailed, sent: progress.sent)
                }
            case .wait(let until):
                if Self.hasQueuedData(channel) { continue }
                _ = io.wait(until: started + until, forceRead: true)
            }
        }
    }

    /// Sends one signal request, retrying while the socket is full until `deadline`. A request libssh2 could not
    /// finish sending stays half-written inside it and would block every later packet: the session is marked broken
    /// then, so the next command fails at once instead of hanging.
    private mutating func sendSignal(_ name: String, channel: OpaquePointer, io: SessionIO,
                                     until deadline: Date) -> Bool {
        while true {
            let rc = libssh2_channel_signal_ex(channel, name, name.utf8.count)
            if rc == 0 { return true }
            if rc == LIBSSH2_ERROR_EAGAIN && io.wait(until: deadline) != .timedOut { continue }
            markBroken()
            return false
        }
    }

    /// Reads what is queued on both streams and drops it (the caller gave up on the output), so a command blocked on
    /// a full window can take its signal and the server's exit-signal and close get through. Bounded per pass: a
    /// command that writes without pause must not keep the stop from its next step. False when reading failed.
    private mutating func discardOutput(_ channel: OpaquePointer, buffer: UnsafeMutableRawPointer, size: Int) -> Bool {
        for streamID in [Int32(0), Int32(SSH_EXTENDED_DATA_STDERR)] {
            for _ in 0..<64 {
                let n = libssh2_channel_read_ex(channel, streamID, buffer.assumingMemoryBound(to: CChar.self), size)
                if n > 0 { continue }
                if n == 0 || n == Int(LIBSSH2_ERROR_EAGAIN) { break }
                markBroken()
                return false
            }
        }
        return true
    }

    /// Whether the server has said the command ended: an exit-signal, a non-zero exit-status, or end-of-file followed
    /// by its close of the channel. End-of-file alone is no proof (a command can close its output and go on; one
    /// that left a child holding its output has ended without it), nor is exit status 0 (libssh2 reports 0 until an
    /// exit-status arrives).
    static func remoteCommandEnded(_ channel: OpaquePointer, raw: OpaquePointer) -> Bool {
        if exitSignal(channel, raw: raw) != nil || libssh2_channel_get_exit_status(channel) != 0 { return true }
        // Non-blocking: 0 once the server's close has arrived, EAGAIN until then.
        return libssh2_channel_eof(channel) != 0 && libssh2_channel_wait_closed(channel) == 0
    }

    /// The signal the server said ended the command (`exit-signal`), if any.
    static func exitSignal(_ channel: OpaquePointer, raw: OpaquePointer) -> String? {
        var name: UnsafeMutablePointer<CChar>?
        var length = 0
        _ = libssh2_channel_get_exit_signal(channel, &name, &length, nil, nil, nil, nil)
        defer { if let name { libssh2_free(raw, name) } }
        guard let name, length > 0 else { return nil }
        return String(decoding: UnsafeRawBufferPointer(start: name, count: length), as: UTF8.self)
    }
}
