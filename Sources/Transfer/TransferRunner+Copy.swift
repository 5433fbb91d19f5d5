import Crypto
import Foundation
import SSH

/// One regular file, either way: under its partial name, then renamed into place.
extension TransferRunner {
    func copy(_ item: TransferItem, lane: SFTPClient, held: LocalDestination.HeldFolder) throws(TransferError)
        -> FileOutcome {
        upload ? try uploadFile(item, lane: lane) : try downloadFile(item, lane: lane, held: held)
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
        do throws(SSHError) {
            if let refusal = try remoteRefusal(lane, item.destination) { return outcome(item, .failed(reason: refusal)) }
        } catch {
            throw remoteFailure(error, item.destination)
        }
        let partial = partialPath(item, info)
        var from: Int64 = 0
        var restartReason: String?
        var proof: ResumeProof?
        if options.resume {
            let found = try proveUploadPrefix(item, info, localFD: fd, partial: partial, lane: lane)
            (from, restartReason) = resumePoint(found.decision, size: info.size)
            proof = found.proof
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
                    if from > 0 {
                        file = try lane.open(partial, .createKeep, mode: (info.mode & 0o777) | 0o600)
                        try file.seek(to: UInt64(from))
                    } else {
                        file = try openNewRemote(lane, partial, mode: (info.mode & 0o777) | 0o600)
                    }
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
        result.resumeProof = proof
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

    /// A new file on the server, never written through a link planted at its name: whatever is there (an older
    /// partial, a link) is removed — a link itself, not what it points to — and the file is made with `O_EXCL`.
    func openNewRemote(_ lane: SFTPClient, _ path: [UInt8], mode: UInt32) throws(SSHError) -> SFTPFile {
        do throws(SSHError) {
            return try lane.open(path, .createNew, mode: mode)
        } catch where error.sftpStatus == .failure || error.sftpStatus == .alreadyExists {
            // SFTP version 3 says "failure" for a name that is taken (OpenSSH maps EEXIST so).
            guard try RemoteFiles.info(lane, path, followLinks: false) != nil else { throw error }
            try lane.remove(path)
            return try lane.open(path, .createNew, mode: mode)
        }
    }

    /// Why an upload may not replace what is at `destination` on the server (nil: nothing, or a regular file).
    /// Folders this run made hold nothing else, so they are not asked.
    func remoteRefusal(_ lane: SFTPClient, _ destination: [UInt8]) throws(SSHError) -> String? {
        let folder = PathBytes.directoryName(destination)
        if sharedState.withLock({ $0.madeFolders.contains(folder) }) { return nil }
        guard let existing = try RemoteFiles.info(lane, destination, followLinks: false),
              existing.kind != .regular else { return nil }
        return "\(PathBytes.shown(destination)) on \(remote.host) is \(existing.kindWords): eSSH writes regular files "
            + "only and does not replace it."
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
            try? remote.afterCancel { (c: SFTPClient) throws(SSHError) in try c.remove(partial) }
        }
    }

    // MARK: - Download

    private func downloadFile(_ item: TransferItem, lane: SFTPClient,
                              held: LocalDestination.HeldFolder) throws(TransferError) -> FileOutcome {
        let start = clock.now()
        guard let info = item.info else { return outcome(item, .failed(reason: "nothing to copy")) }
        let place: LocalDestination.Place
        do throws(TransferError) {
            place = try localDestination().place(item.destination, held: held)
        } catch {
            return outcome(item, .failed(reason: error.message))
        }
        defer { place.close() }
        // A device, FIFO, socket, link or folder at the destination is never replaced (nor written through): said
        // before anything is read (a folder this run made holds nothing else), and checked again at the end.
        let fresh = sharedState.withLock { $0.madeFolders.contains(PathBytes.directoryName(item.destination)) }
        if !fresh, let refusal = place.refusal() { return outcome(item, .failed(reason: refusal)) }
        let usual = PartialName.name(for: place.name, sourcePath: item.source, size: info.size,
                                     modified: info.modified)
        let file: SFTPFile
        do throws(SSHError) {
            file = try lane.open(item.source, .read)
        } catch where error.sftpStatus == .noSuchFile {
            return outcome(item, .failed(reason: "\(PathBytes.shown(item.source)) vanished on \(remote.host) before "
                                         + "it was copied."))
        } catch {
            throw remoteFailure(error, item.source)
        }
        var from: Int64 = 0
        var restartReason: String?
        var proof: ResumeProof?
        var fd: Int32 = -1
        var partial = usual
        if options.resume, let existing = try place.openPartial(usual) {
            switch existing {
            case .own(let own, let size):
                fd = own
                let found: ProvenResume
                do throws(TransferError) {
                    found = try proveDownloadPrefix(item, info, partialFD: own, partialSize: size, file: file)
                } catch {
                    close(own)
                    throw error
                }
                (from, restartReason) = resumePoint(found.decision, size: info.size)
                proof = found.proof
                if from == 0 && ftruncate(own, 0) != 0 {
                    close(own)
                    throw LocalFiles.error("write", item.destination)
                }
            case .foreign(let reason):
                restartReason = reason
            }
        }
        if fd < 0 {
            do throws(TransferError) {
                let made = try place.createPartial(usual)
                fd = made.fd
                partial = made.name
                if options.resume, restartReason == nil { restartReason = made.note }
            } catch {
                return outcome(item, .failed(reason: error.message))
            }
        }
        events(.fileStarted(source: item.source, destination: item.destination, size: info.size, resumingFrom: from))
        var hasher: SHA256? = options.checksum ? SHA256() : nil
        var sent: Int64 = 0
        do throws(TransferError) {
            if from > 0 && hasher != nil { try hashLocal(fd, upTo: from, into: &hasher, path: partial) }
            // Where a partial was looked at (kept or not), both files are put where writing goes on.
            if proof != nil || from > 0 {
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
            } else {
                // The partial was made for its owner alone; the copy gets the source's mode, as scp does.
                fchmod(fd, mode_t(info.mode & 0o777 & ~LocalFiles.umask))
            }
            let closed = close(fd)
            fd = -1
            if closed != 0 { throw LocalFiles.error("write", item.destination) }
            try? file.close()
            try place.put(partial)
        } catch {
            if !((error.kind == .cancelled || error.kind == .connection) && options.keepPartialOnCancel) {
                place.removeOwn(partial)
            }
            if fd >= 0 { close(fd) }
            throw error
        }
        for stale in stalePartials(of: item.destination, keep: partial, list: { _ in place.names() }) {
            place.removeOwn(PathBytes.baseName(stale))
        }
        var result = FileOutcome(source: item.source, destination: item.destination, size: info.size,
                                 bytesSent: sent, status: from == info.size && from > 0 ? .alreadyComplete : .copied,
                                 resumedFrom: from > 0 ? from : nil, restartReason: restartReason)
        result.resumeProof = proof
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

    func hashLocal(_ fd: Int32, upTo end: Int64, into hasher: inout SHA256?,
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
