import Basics
import Crypto
import Foundation
import SSH
import Synchronization

/// One big upload written by several lanes at once, each its own range of the one partial: the design note measured
/// one lane held to sshd's 2 MiB channel window per round trip (71.5 MB/s at 25 ms), and two lanes 1.7× that.
extension TransferRunner {
    /// Files at least this big are split when they are the only file of a transfer.
    static let splitThreshold: Int64 = 64 << 20
    /// At most this many ranges (channels: the run's lanes stay within sshd's MaxSessions 10).
    static let maxSplit = 4

    /// How many lanes write a file of `size` bytes: one unless it is the transfer's only file, big, and not
    /// --resume (a resumed copy continues one prefix on one lane).
    func splitWays(_ size: Int64, resuming: Bool) -> Int {
        guard !resuming, size >= splitThreshold else { return 1 }
        let only = sharedState.withLock { $0.filesTotal } == 1
        let ways = only ? min(max(options.parallel, 1), Self.maxSplit, remote.lanes) : 1
        sharedState.withLock { $0.splitWays = max($0.splitWays, ways) }
        return ways
    }

    /// The split copy's own partial name: ranges leave holes until all are written, so it must never be mistaken
    /// for a prefix by --resume (its hash differs from the resumable name's; stale-partial clean-up still knows it).
    func splitPartialPath(_ item: TransferItem, _ info: FileInfo) -> [UInt8] {
        let name = PartialName.name(for: PathBytes.baseName(item.destination),
                                    sourcePath: item.source + [0] + Array("split".utf8), size: info.size,
                                    modified: info.modified)
        return PathBytes.join(PathBytes.directoryName(item.destination), name)
    }

    /// Writes `fd` to `partial` in `ways` ranges on `lane` and `ways - 1` lanes opened for it. On a cancel with
    /// keepPartialOnCancel the partial is cut to its complete prefix and renamed to `resumable`, so --resume
    /// continues it; on any other failure it is removed.
    func pushSplit(_ fd: Int32, item: TransferItem, info: FileInfo, partial: [UInt8], resumable: [UInt8],
                   lane: SFTPClient, ways: Int) throws(TransferError) -> Int64 {
        let size = info.size
        let step = ((size + Int64(ways) - 1) / Int64(ways) + (1 << 20) - 1) / (1 << 20) * (1 << 20)
        let ranges = (0..<ways).map { i in min(Int64(i) * step, size)..<min(Int64(i + 1) * step, size) }
            .filter { !$0.isEmpty }
        var clients = [lane]
        var files: [SFTPFile] = []
        defer { for client in clients.dropFirst() { client.close() } }
        do throws(SSHError) {
            files.append(try openNewRemote(lane, partial, mode: (info.mode & 0o777) | 0o600))
            for range in ranges.dropFirst() {
                let client: SFTPClient
                do throws(TransferError) { client = try remote.openLane(cancel: cancel) } catch {
                    throw SSHError(.io, error.message, error.message)
                }
                clients.append(client)
                let file = try client.open(partial, .createKeep)
                try file.seek(to: UInt64(range.lowerBound))
                files.append(file)
            }
        } catch {
            try? lane.remove(partial)
            throw remoteFailure(error, item.destination)
        }
        struct State {
            var done: Int64 = 0
            var acked: [Int64]
            var failure: TransferError?
        }
        let state = Mutex(State(acked: Array(repeating: 0, count: ranges.count)))
        let opened = files
        let group = DispatchGroup()
        let runRange: @Sendable (Int) -> Void = { [self] i in
            var none: SHA256?
            do throws(TransferError) {
                _ = try push(fd, to: opened[i], from: ranges[i].lowerBound, end: ranges[i].upperBound, size: size,
                             item: item, hasher: &none, stop: { state.withLock { $0.failure != nil } }) { n in
                    state.withLock { s in
                        s.acked[i] += n
                        s.done += n
                        return s.done
                    }
                }
                do throws(SSHError) { try opened[i].close() } catch {
                    throw remoteFailure(error, item.destination)
                }
            } catch {
                state.withLock { s in if s.failure == nil || s.failure?.kind == .cancelled { s.failure = error } }
            }
        }
        for i in ranges.indices.dropFirst() {
            group.enter()
            if !PlainThread.start(stackSize: 1 << 20, { runRange(i); group.leave() }) {
                state.withLock { $0.failure = TransferError(.localFile, "No thread could be started to copy "
                                                             + "\(PathBytes.shown(item.source)).") }
                group.leave()
            }
        }
        runRange(0)
        group.wait()
        var (failure, acked, done) = state.withLock { ($0.failure, $0.acked, $0.done) }
        if failure == nil && done != size { failure = changedLocally(item, size, done) }
        guard let failure else { return done }
        // Every range's writes already sent are done before the partial is cut or removed.
        for file in opened { file.settle() }
        // The complete prefix: ranges in order, each whole except the first one that is not.
        var prefix: Int64 = 0
        for (i, range) in ranges.enumerated() {
            prefix = range.lowerBound + acked[i]
            if acked[i] < Int64(range.count) { break }
        }
        if failure.kind == .connection { throw failure }
        // The copy's channels stop at a cancel: a channel of its own does what is left.
        _ = try? remote.afterCancel { (c: SFTPClient) throws(SSHError) in
            if failure.kind == .cancelled && options.keepPartialOnCancel && prefix > 0 {
                try c.setStat(partial, SFTPAttributes(size: UInt64(prefix)))
                if (try? c.posixRename(partial, to: resumable)) != true {
                    try? c.remove(resumable)
                    try c.rename(partial, to: resumable)
                }
            } else {
                try c.remove(partial)
            }
        }
        throw failure
    }
}
