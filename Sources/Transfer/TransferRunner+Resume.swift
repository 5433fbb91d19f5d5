import Crypto
import Foundation
import SSH

/// --resume keeps a partial only once its whole content is proven equal to the source's first bytes: sha256 of the
/// prefix on both sides (the server's by a command), or, where the server runs no command, the prefix read back from
/// the server and compared byte for byte. A copy that cannot prove its prefix starts over; nothing is ever renamed
/// into place that was not proven.
extension TransferRunner {
    typealias ProvenResume = (decision: ResumeDecision, proof: ResumeProof?)

    /// A download's partial (open as `partialFD`, `partialSize` bytes) against the server's `file`.
    func proveDownloadPrefix(_ item: TransferItem, _ info: FileInfo, partialFD: Int32, partialSize: Int64,
                             file: SFTPFile) throws(TransferError) -> ProvenResume {
        try prove(ResumeDecision.decide(partialSize: partialSize, sourceSize: info.size), size: partialSize,
                  remotePath: item.source, localFD: partialFD, localPath: item.destination) { () throws(SSHError) in
            try file.seek(to: 0)
            return file
        }
    }

    /// An upload's partial `partial` on the server against this machine's `localFD`.
    func proveUploadPrefix(_ item: TransferItem, _ info: FileInfo, localFD: Int32, partial: [UInt8],
                           lane: SFTPClient) throws(TransferError) -> ProvenResume {
        let existing: FileInfo?
        do throws(SSHError) {
            existing = try RemoteFiles.info(lane, partial, followLinks: false)
        } catch {
            throw remoteFailure(error, item.destination)
        }
        guard let existing, existing.kind == .regular else { return (.fresh, nil) }
        return try prove(ResumeDecision.decide(partialSize: existing.size, sourceSize: info.size), size: existing.size,
                         remotePath: partial, localFD: localFD, localPath: item.source) { () throws(SSHError) in
            try lane.open(partial, .read)
        }
    }

    /// Proves the first `size` bytes of `remotePath` equal to those of `localFD` when `candidate` keeps a prefix:
    /// by digests where the server runs a command, else by reading the server's file (`open` gives it at byte 0).
    private func prove(_ candidate: ResumeDecision, size: Int64, remotePath: [UInt8], localFD: Int32,
                       localPath: [UInt8],
                       open: () throws(SSHError) -> SFTPFile) throws(TransferError) -> ProvenResume {
        switch candidate {
        case .append, .complete: break
        default: return (candidate, nil)
        }
        if let remoteHex = serverDigest(of: remotePath, prefix: size) {
            let localHex = try localDigest(localFD, upTo: size, path: localPath)
            return (ResumeDecision.proven(candidate, differsAt: localHex == remoteHex ? nil : 0, by: .sha256), .sha256)
        }
        let differs: Int64?
        do throws(SSHError) {
            let file = try open()
            differs = try firstDifference(size) { buffer throws(SSHError) in
                try readFully(file, into: buffer)
            } local: { buffer, offset in
                pread(localFD, buffer.baseAddress!, buffer.count, off_t(offset))
            }
        } catch {
            throw remoteFailure(error, remotePath)
        }
        return (ResumeDecision.proven(candidate, differsAt: differs, by: .readBack), .readBack)
    }

    /// The server's sha256 of the first `prefix` bytes of `path`, or nil when it runs no command or has no tool.
    private func serverDigest(of path: [UInt8], prefix: Int64) -> String? {
        guard let out = try? remote.session.capture(ChecksumPlan.command(for: path, prefix: prefix), timeout: 3600,
                                                    cancel: cancel) else { return nil }
        if case .digest(let hex) = ChecksumPlan.read(stdout: out.stdout, stderr: out.stderr, status: out.exit.status,
                                                     host: remote.host) {
            return hex
        }
        return nil
    }

    private func localDigest(_ fd: Int32, upTo end: Int64, path: [UInt8]) throws(TransferError) -> String {
        var hasher: SHA256? = SHA256()
        try hashLocal(fd, upTo: end, into: &hasher, path: path)
        return hasher!.finalize().map { String(format: "%02x", $0) }.joined()
    }

    /// Compares `count` bytes read in order from both sides; the first differing byte (from 1), 0 when one side ends
    /// early, nil when all are equal.
    private func firstDifference(_ count: Int64,
                                 remote: (UnsafeMutableRawBufferPointer) throws(SSHError) -> Int,
                                 local: (UnsafeMutableRawBufferPointer, Int64) -> Int) throws(SSHError) -> Int64? {
        let chunk = Transfer.window
        let a = UnsafeMutableRawBufferPointer.allocate(byteCount: chunk, alignment: 16)
        let b = UnsafeMutableRawBufferPointer.allocate(byteCount: chunk, alignment: 16)
        defer {
            a.deallocate()
            b.deallocate()
        }
        var offset: Int64 = 0
        while offset < count {
            if cancel?.isCancelled == true { throw SSHError(.cancelled, "cancelled", "The copy was cancelled.") }
            let want = Int(min(Int64(chunk), count - offset))
            let got = try remote(UnsafeMutableRawBufferPointer(rebasing: a[0..<want]))
            var have = 0
            while have < got {
                let n = local(UnsafeMutableRawBufferPointer(rebasing: b[have..<got]), offset + Int64(have))
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { return 0 }
                have += n
            }
            guard got == want else { return 0 }
            if memcmp(a.baseAddress!, b.baseAddress!, got) != 0 {
                for i in 0..<got where a[i] != b[i] { return offset + Int64(i) + 1 }
            }
            offset += Int64(got)
        }
        return nil
    }

    /// Reads until `buffer` is full or the file ends.
    private func readFully(_ file: SFTPFile, into buffer: UnsafeMutableRawBufferPointer) throws(SSHError) -> Int {
        var got = 0
        while got < buffer.count {
            let n = try file.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[got...]))
            if n == 0 { break }
            got += n
        }
        return got
    }
}
