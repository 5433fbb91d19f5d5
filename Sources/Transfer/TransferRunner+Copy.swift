import Crypto
import Foundation
import SSH

/// One regular file, either way: under its partial name, then renamed into place.
extension TransferRunner {
    func copy(_ item: TransferItem, lane: SFTPClient) throws(TransferError) -> FileOutcome {
        upload ? try uploadFile(item, lane: lane) : try downloadFile(item, lane: lane)
    }

    /// `.NAME.essh-<hex>.part` beside the destination.
    func partialPath(_ item: TransferItem, _ info: FileInfo) -> [UInt8] {
        let name = PartialName.name(for: PathBytes.baseName(item.destination), sourcePath: item.source,
                                    size: info.size, modified: info.modified)
        return PathBytes.join(PathBytes.directoryName(item.destination), name)
    }

    /// Where a copy of `size` bytes starts after `decision`, and why it starts over when it does.
    func resumePoint(_ decision: ResumeDecision, size: Int64) -> (from: Int64, restartReason: String?) {
        switch decision {
        case .append(let offset): return (offset, nil)
        case .complete: return (size, nil)
        case .restart(let reason): return (0, reason)
        case .fresh: return (0, nil)
        }
    }

    /// An SSH error about `path` as the module's, naming the server and the path the person knows.
    func remoteFailure(_ error: SSHError, _ path: [UInt8]) -> TransferError {
        if error.kind == .remoteFile, let status = error.sftpStatus {
            return TransferError(.remoteFile, "\(remote.host): \(PathBytes.shown(path)): \(status.words).")
        }
        return TransferError(error)
    }

    func cancelled() -> TransferError { TransferError(.cancelled, "The copy was cancelled.") }

    // MARK: - Upload

    private func uploadFile(_ item: TransferItem, lane: SFTPClient) throws(TransferError) -> FileOutcome {
        let start = clock.now()
        let fd = open(try LocalFiles.cPath(item.source), O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT {
                return outcome(item, .failed(reason: "\(PathBytes.shown(item.source)) vanished on this machine "
                                             + "before it was copied."))
            }
            return outcome(item, .failed(reason: LocalFiles.error("open", item.source).message))
        }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw LocalFiles.error("read", item.source) }
        let info = LocalFiles.info(st)
        guard info.kind == .regular else {
            return outcome(item, .skipped(reason: TransferPlanner.notRegular(item.source, info)))
        }
        _ = fcntl(fd, F_SETFL, 0)
        let partial = partialPath(item, info)
        var from: Int64 = 0
        var restartReason: String?
        if options.resume {
            do throws(SSHError) {
                if let p = try RemoteFiles.info(lane, partial, followLinks: false), p.kind == .regular {
                    let window = ResumeDecision.window(partialSize: p.size)
                    let partialTail = try readRemote(lane, partial, window)
                    let sourceTail = readLocal(fd, window)
                    (from, restartReason) = resumePoint(ResumeDecision.decide(
                        partialSize: p.size, sourceSize: info.size, partialTail: partialTail, sourceTail: sourceTail),
                        size: info.size)
                }
            } catch {
                throw remoteFailure(error, item.destination)
            }
        }
        events(.fileStarted(source: item.source, destination: item.destination, size: info.size, resumingFrom: from))
        var hasher: SHA256? = options.checksum ? SHA256() : nil
        if from > 0 && hasher != nil { try hashLocal(fd, upTo: from, into: &hasher, path: item.source) }
        var sent: Int64 = 0
        var atomic = true
        var writing = partial
        do throws(TransferError) {
            let ways = splitWays(info.size, resuming: options.resume)
            if ways > 1 {
                let split = splitPartialPath(item, info)
                writing = split
                sent = try pushSplit(fd, item: item, info: info, partial: split, resumable: partial, lane: lane,
                                     ways: ways)
                if hasher != nil { try hashLocal(fd, upTo: info.size, into: &hasher, path: item.source) }
                do throws(SSHError) {
                    try lane.setStat(split, finalAttributes(info))
                    atomic = try placeRemote(lane, split, item.destination)
                } catch {
                    throw remoteFailure(error, item.destination)
                }
            } else {
                let file: SFTPFile
                do throws(SSHError) {
                    file = try lane.open(partial, from > 0 ? .createKeep : .createTruncate,
                                         mode: (info.mode & 0o777) | 0o600)
                    if from > 0 { try file.seek(to: UInt64(from)) }
                } catch {
                    throw remoteFailure(error, item.destination)
                }
                var done = from
                do throws(TransferError) {
                    sent = try push(fd, to: file, from: from, end: info.size, size: info.size, item: item,
                                    hasher: &hasher) { n in
                        done += n
                        return done
                    }
                } catch {
                    file.settle()
                    throw error
                }
                if done != info.size { throw changedLocally(item, info.size, done) }
                do throws(SSHError) {
                    let attributes = finalAttributes(info)
                    if attributes != SFTPAttributes() { try file.setStat(attributes) }
                    try file.close()
                    atomic = try placeRemote(lane, partial, item.destination)
                } catch {
                    throw remoteFailure(error, item.destination)
                }
            }
        } catch {
            dropRemotePartial(writing, lane: lane, error: error)
            throw error
        }
        for stale in stalePartials(of: item.destination, keep: partial, list: { folder in
            (try? lane.list(folder))?.map(\.name)
        }) {
            try? lane.remove(stale)
        }
        var result = FileOutcome(source: item.source, destination: item.destination, size: info.size,
                                 bytesSent: sent, status: from == info.size && from > 0 ? .alreadyComplete : .copied,
                                 resumedFrom: from > 0 ? from : nil, restartReason: restartReason)
        result.replacedAtomically = atomic
        if let hasher { result.checksum = compare(local: hasher, remotePath: item.destination) }
        result.seconds = clock.now() - start
        return result
    }

    /// Sends `fd` from byte `from` (to `end`, else its end) through `file`: one contiguous buffer, handed to libssh2
    /// up to `Transfer.window` bytes at a time from the first byte not acknowledged, compacted only once that passes
    /// half the buffer. `acked` counts what the server acknowledged and answers the file's bytes done so far; `stop`
    /// ends the loop early (another range of the same file failed).
    func push(_ fd: Int32, to file: SFTPFile, from: Int64, end: Int64? = nil, size: Int64, item: TransferItem,
              hasher: inout SHA256?, stop: () -> Bool = { false },
              acked onAcked: (Int64) -> Int64) throws(TransferError) -> Int64 {
        let capacity = 2 * Transfer.window
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
        defer { buffer.deallocate() }
        var head = 0, tail = 0, eof = false
        var readAt = from, sent: Int64 = 0
        while true {
            if cancel?.isCancelled == true { throw cancelled() }
            if stop() { break }
            if !eof && tail - head < Transfer.window {
                if head > capacity / 2 || tail == capacity {
                    memmove(buffer, buffer + head, tail - head)
                    tail -= head
                    head = 0
                }
                var want = min(capacity - tail, Transfer.window - (tail - head))
                if let limiter { want = min(want, limiter.chunk) }
                if let end { want = Int(min(Int64(want), end - readAt)) }
                let n = want > 0 ? pread(fd, buffer + tail, want, off_t(readAt)) : 0
                if n < 0 {
                    if errno == EINTR { continue }
                    throw LocalFiles.error("read", item.source)
                }
                if n == 0 {
                    eof = true
                } else {
                    hasher?.update(bufferPointer: UnsafeRawBufferPointer(start: buffer + tail, count: n))
                    tail += n
                    readAt += Int64(n)
                    limiter?.take(n)
                }
            }
            if head == tail {
                if eof { break }
                continue
            }
            let acked: Int
            do throws(SSHError) {
                acked = try file.write(UnsafeRawBufferPointer(start: buffer + head, count: tail - head))
            } catch {
                throw writeFailure(error, file: file, written: from + sent, size: size, item: item)
            }
            head += acked
            sent += Int64(acked)
            let done = onAcked(Int64(acked))
            progressed(Int64(acked), file: item.destination, fileDone: done, fileSize: size)
        }
        return sent
    }

    /// What the file gets before it is renamed into place: -p's mode and times; without -p only the mode when the
    /// partial was created with more (owner read/write, so a resumed run can reopen it).
    func finalAttributes(_ info: FileInfo) -> SFTPAttributes {
        if options.preserve {
            return SFTPAttributes(permissions: info.mode, accessed: UInt32(clamping: info.accessed),
                                  modified: UInt32(clamping: info.modified))
        }
        if (info.mode & 0o777) | 0o600 != info.mode & 0o777 { return SFTPAttributes(permissions: info.mode & 0o777) }
        return SFTPAttributes()
    }

    /// The source on this machine was not `size` bytes long when read (it shrank while it was copied).
    func changedLocally(_ item: TransferItem, _ size: Int64, _ read: Int64) -> TransferError {
        TransferError(.localFile, "\(PathBytes.shown(item.source)) changed on this machine while it was copied "
                      + "(\(ResumeDecision.grouped(read)) of \(ResumeDecision.grouped(size)) bytes read): copy it "
                      + "again once it is complete.")
    }

    /// The source on the server grew or shrank while it was read.
    func changedRemotely(_ item: TransferItem) -> TransferError {
        TransferError(.remoteFile, "\(remote.host): \(PathBytes.shown(item.source)) changed while it was copied: "
                      + "copy it again once it is complete.")
    }

    /// A failed write: OpenSSH says FX 4 (not 14 or 15) for a full disk, so ask the file system how much is free.
    private func writeFailure(_ error: SSHError, file: SFTPFile, written: Int64, size: Int64,
                              item: TransferItem) -> TransferError {
        guard error.kind == .remoteFile else { return remoteFailure(error, item.destination) }
        if [.failure, .noSpace, .quotaExceeded].contains(error.sftpStatus),
           let free = try? file.spaceAvailable(), Int64(clamping: free) < max(size - written, 1) {
            return TransferError(.remoteFile, "No space left on \(remote.host) (\(ResumeDecision.grouped(Int64(free)))"
                                 + " bytes free) for \(PathBytes.shown(item.destination)) "
                                 + "(\(ResumeDecision.grouped(size)) bytes).")
        }
        if error.sftpStatus == .quotaExceeded {
            return TransferError(.remoteFile, "\(remote.host): \(PathBytes.shown(item.destination)): disk quota "
                                 + "exceeded.")
        }
        return remoteFailure(error, item.destination)
    }

    /// posix-rename where the server has it; else rename, and if the destination exists remove it first (false:
    /// not atomic).
    private func placeRemote(_ lane: SFTPClient, _ partial: [UInt8], _ destination: [UInt8]) throws(SSHError) -> Bool {
        do throws(SSHError) {
            if try lane.posixRename(partial, to: destination) { return true }
        } catch where error.sftpStatus == .unsupported || error.sftpStatus == .permissionDenied {
            // Advertised but refused (sftp-server -P posix-rename): as if the server lacked it.
        }
        do throws(SSHError) {
            try lane.rename(partial, to: destination)
            return true
        } catch where error.sftpStatus == .failure || error.sftpStatus == .alreadyExists {
            guard let existing = try RemoteFiles.info(lane, destination, followLinks: false),
                  existing.kind != .directory else { throw error }
            try lane.remove(destination)
            try lane.rename(partial, to: destination)
            return false
        }
    }

    /// After a failure: the partial goes, unless it is worth resuming (a cancel or lost connection with
    /// keepPartialOnCancel). A cancelled lane is dropped, so the shared channel removes it.
    private func dropRemotePartial(_ partial: [UInt8], lane: SFTPClient, error: TransferError) {
        if (error.kind == .cancelled || error.kind == .connection) && options.keepPartialOnCancel { return }
        if error.kind == .connection { return }
        // A cancelled lane's calls would stop at once: after a cancel the shared channel removes it.
        if lane.isOpen && error.kind != .cancelled {
            try? lane.remove(partial)
        } else {
            try? remote.withMain { (c: SFTPClient) throws(SSHError) in try c.remove(partial) }
        }
    }

    // MARK: - Download

    private func downloadFile(_ item: TransferItem, lane: SFTPClient) throws(TransferError) -> FileOutcome {
        let start = clock.now()
        guard let info = item.info else { return outcome(item, .failed(reason: "nothing to copy")) }
        let partial = partialPath(item, info)
        var from: Int64 = 0
        var restartReason: String?
        let file: SFTPFile
        do throws(SSHError) {
            file = try lane.open(item.source, .read)
        } catch where error.sftpStatus == .noSuchFile {
            return outcome(item, .failed(reason: "\(PathBytes.shown(item.source)) vanished on \(remote.host) before "
                                         + "it was copied."))
        } catch {
            throw remoteFailure(error, item.source)
        }
        if options.resume, let p = try local.info(partial, followLinks: false), p.kind == .regular {
            let window = ResumeDecision.window(partialSize: p.size)
            let pfd = open(try LocalFiles.cPath(partial), O_RDONLY | O_CLOEXEC)
            if pfd >= 0 {
                defer { close(pfd) }
                let partialTail = readLocal(pfd, window)
                let sourceTail: [UInt8]
                do throws(SSHError) {
                    sourceTail = try readRemote(file, window)
                    try file.seek(to: 0)
                } catch {
                    throw remoteFailure(error, item.source)
                }
                (from, restartReason) = resumePoint(ResumeDecision.decide(
                    partialSize: p.size, sourceSize: info.size, partialTail: partialTail, sourceTail: sourceTail),
                    size: info.size)
            }
        }
        events(.fileStarted(source: item.source, destination: item.destination, size: info.size, resumingFrom: from))
        let flags = O_WRONLY | O_CREAT | O_CLOEXEC | (from > 0 ? 0 : O_TRUNC)
        let fd = open(try LocalFiles.cPath(partial), flags, mode_t((info.mode & 0o777) | 0o600))
        guard fd >= 0 else { return outcome(item, .failed(reason: LocalFiles.error("write", item.destination).message)) }
        var hasher: SHA256? = options.checksum ? SHA256() : nil
        var sent: Int64 = 0
        do throws(TransferError) {
            if from > 0 {
                if hasher != nil {
                    let rfd = open(try LocalFiles.cPath(partial), O_RDONLY | O_CLOEXEC)
                    defer { close(rfd) }
                    try hashLocal(rfd, upTo: from, into: &hasher, path: partial)
                }
                lseek(fd, off_t(from), SEEK_SET)
                do throws(SSHError) { try file.seek(to: UInt64(from)) } catch { throw remoteFailure(error, item.source) }
            }
            sent = try pull(file, to: fd, from: from, size: info.size, item: item, hasher: &hasher)
            if from + sent != info.size { throw changedRemotely(item) }
            if options.preserve {
                fchmod(fd, mode_t(info.mode))
                var times = [timespec(tv_sec: Int(info.accessed), tv_nsec: 0),
                             timespec(tv_sec: Int(info.modified), tv_nsec: 0)]
                futimens(fd, &times)
            } else if (info.mode & 0o777) | 0o600 != info.mode & 0o777 {
                // The partial was made writable for its owner; give the copy the source's mode, as scp does.
                fchmod(fd, mode_t(info.mode & 0o777 & ~LocalFiles.umask))
            }
            let closed = close(fd)
            if closed != 0 { throw LocalFiles.error("write", item.destination) }
            try? file.close()
            guard Glibc.rename(try LocalFiles.cPath(partial), try LocalFiles.cPath(item.destination)) == 0 else {
                throw LocalFiles.error("put the copy in place at", item.destination)
            }
        } catch {
            if !((error.kind == .cancelled || error.kind == .connection) && options.keepPartialOnCancel) {
                _ = unlink(try LocalFiles.cPath(partial))
            }
            close(fd)
            throw error
        }
        for stale in stalePartials(of: item.destination, keep: partial, list: { folder in
            (try? local.list(folder))?.map(\.name)
        }) {
            if let p = try? LocalFiles.cPath(stale) { unlink(p) }
        }
        var result = FileOutcome(source: item.source, destination: item.destination, size: info.size,
                                 bytesSent: sent, status: from == info.size && from > 0 ? .alreadyComplete : .copied,
                                 resumedFrom: from > 0 ? from : nil, restartReason: restartReason)
        if let hasher { result.checksum = compare(local: hasher, remotePath: item.source) }
        result.seconds = clock.now() - start
        return result
    }

    /// Reads `file` into `fd`, asking for at most `Transfer.window` and never more than what is left (plus one byte,
    /// to see the end): libssh2 reads ahead four times what it is given, past the end too.
    private func pull(_ file: SFTPFile, to fd: Int32, from: Int64, size: Int64, item: TransferItem,
                      hasher: inout SHA256?) throws(TransferError) -> Int64 {
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: Transfer.window, alignment: 16)
        defer { buffer.deallocate() }
        var done = from, sent: Int64 = 0
        while true {
            if cancel?.isCancelled == true { throw cancelled() }
            var want = Int(min(Int64(Transfer.window), max(size - done, 0) + 1))
            if let limiter { want = min(want, limiter.chunk) }
            let n: Int
            do throws(SSHError) {
                n = try file.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: want))
            } catch {
                if error.detail.contains("Unexpected Offset") { throw changedRemotely(item) }
                throw remoteFailure(error, item.source)
            }
            if n == 0 { break }
            if done + Int64(n) > size { throw changedRemotely(item) }
            limiter?.take(n)
            hasher?.update(bufferPointer: UnsafeRawBufferPointer(start: buffer, count: n))
            var off = 0
            while off < n {
                let w = write(fd, buffer + off, n - off)
                if w < 0 {
                    if errno == EINTR { continue }
                    if errno == ENOSPC {
                        var vfs = statvfs()
                        let dir = PathBytes.directoryName(item.destination)
                        let free = statvfs(try LocalFiles.cPath(dir.isEmpty ? [0x2E] : dir), &vfs) == 0
                            ? Int64(vfs.f_bavail) * Int64(vfs.f_frsize) : 0
                        throw TransferError(.localFile, "No space left on this machine "
                                            + "(\(ResumeDecision.grouped(free)) bytes free) for "
                                            + "\(PathBytes.shown(item.destination)) "
                                            + "(\(ResumeDecision.grouped(size)) bytes).")
                    }
                    throw LocalFiles.error("write", item.destination)
                }
                off += w
            }
            done += Int64(n)
            sent += Int64(n)
            progressed(Int64(n), file: item.destination, fileDone: done, fileSize: size)
        }
        return sent
    }

    // MARK: - Helpers

    private func readLocal(_ fd: Int32, _ range: Range<Int64>) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: range.count)
        var got = 0
        while got < out.count {
            let n = out.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + got, $0.count - got,
                                                       off_t(range.lowerBound) + off_t(got)) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            got += n
        }
        return Array(out.prefix(got))
    }

    private func readRemote(_ lane: SFTPClient, _ path: [UInt8], _ range: Range<Int64>) throws(SSHError) -> [UInt8] {
        let file = try lane.open(path, .read)
        defer { try? file.close() }
        return try readRemote(file, range)
    }

    private func readRemote(_ file: SFTPFile, _ range: Range<Int64>) throws(SSHError) -> [UInt8] {
        try file.seek(to: UInt64(range.lowerBound))
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: range.count + 1, alignment: 16)
        defer { buffer.deallocate() }
        var got = 0
        while got < range.count {
            let n = try file.read(into: UnsafeMutableRawBufferPointer(start: buffer + got, count: range.count + 1 - got))
            if n == 0 { break }
            got += n
        }
        return Array(UnsafeRawBufferPointer(start: buffer, count: min(got, range.count)))
    }

    private func hashLocal(_ fd: Int32, upTo end: Int64, into hasher: inout SHA256?,
                           path: [UInt8]) throws(TransferError) {
        var offset: Int64 = 0
        let chunk = 1 << 20
        var buffer = [UInt8](repeating: 0, count: chunk)
        while offset < end {
            let want = Int(min(Int64(chunk), end - offset))
            let n = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress!, want, off_t(offset)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw LocalFiles.error("read", path) }
            buffer.withUnsafeBytes { hasher?.update(bufferPointer: UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
            offset += Int64(n)
        }
    }

    /// The local digest against the server's `sha256sum` of `remotePath`.
    private func compare(local hasher: SHA256, remotePath: [UInt8]) -> ChecksumResult {
        let localHex = hasher.finalize().map { String(format: "%02x", $0) }.joined()
        let answer: ChecksumPlan.Answer
        do throws(SSHError) {
            let out = try remote.session.capture(ChecksumPlan.command(for: remotePath), timeout: 3600, cancel: cancel)
            answer = ChecksumPlan.read(stdout: out.stdout, stderr: out.stderr, status: out.exit.status,
                                       host: remote.host)
        } catch {
            answer = .unavailable("the checksum on \(remote.host) could not run: \(error.message)")
        }
        switch answer {
        case .digest(let remoteHex):
            return remoteHex == localHex ? .matched(sha256: localHex) : .differ(local: localHex, remote: remoteHex)
        case .unavailable(let reason):
            return .unavailable(reason: reason)
        }
    }
}
