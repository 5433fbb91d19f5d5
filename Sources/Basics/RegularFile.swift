import Foundation

/// Reading a file that a person named (known_hosts, ssh_config, a password file) without trusting what it is: only a
/// regular file is read, never a FIFO (which would block), a device (`/dev/zero` never ends) or a folder, and never
/// more than `limit` bytes. Opening never blocks (O_NONBLOCK) and never makes a terminal ours (O_NOCTTY).
public enum RegularFile {
    /// Why a file was not read, in words that say what to do.
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        public enum Kind: Sendable, Equatable {
            case missing
            case notRegular
            case tooLarge
            case unreadable
        }
        public let kind: Kind
        /// What follows the file's name in a sentence: "does not exist", "is a FIFO (named pipe), not a regular
        /// file", "is larger than 16 MiB", "cannot be read (Permission denied)".
        public let reason: String
        public var description: String { reason }

        /// A failed open, stat or read.
        static func errno(_ code: Int32) -> Failure {
            code == ENOENT ? Failure(kind: .missing, reason: "does not exist")
                : Failure(kind: .unreadable, reason: "cannot be read (\(String(cString: strerror(code))))")
        }
    }

    /// The bytes of the regular file at `path` (following symbolic links), at most `limit` of them.
    public static func read(_ path: String, limit: Int) throws(Failure) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else {
            throw Failure.errno(errno)
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw Failure.errno(errno) }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw Failure(kind: .notRegular, reason: "is \(describe(mode: info.st_mode)), not a regular file")
        }
        if info.st_size > limit {
            throw Failure(kind: .tooLarge, reason: "is larger than \(ByteCountText.text(limit)) (\(info.st_size) bytes)")
        }
        // The file may grow while it is read: never past the limit.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(info.st_size))
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let n = chunk.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress!, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw Failure.errno(errno)
            }
            if n == 0 { return bytes }
            guard bytes.count + n <= limit else {
                throw Failure(kind: .tooLarge, reason: "is larger than \(ByteCountText.text(limit))")
            }
            bytes += chunk[0..<n]
        }
    }

    /// The text of the regular file at `path` (UTF-8; invalid bytes replaced), at most `limit` bytes.
    public static func text(_ path: String, limit: Int) throws(Failure) -> String {
        String(decoding: try read(path, limit: limit), as: UTF8.self)
    }

    static func describe(mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFIFO: return "a FIFO (named pipe)"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFDIR: return "a folder"
        case S_IFSOCK: return "a socket"
        default: return "not a plain file"
        }
    }
}

/// Byte counts as people read them: "16 MiB", "512 KiB", "100 bytes" for sizes and limits (`text`); "12.3 kB",
/// "4.5 MB/s" for amounts moved and rates (`decimal`, `rate`: the Tunnels screen, `essh cp`'s progress).
public enum ByteCountText {
    public static func text(_ bytes: Int) -> String {
        if bytes >= 1 << 20 && bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
        if bytes >= 1 << 10 && bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
        return "\(bytes) bytes"
    }

    /// `0 B`, `999 B`, `12.3 kB`, `4.5 MB`: decimal units, one decimal above a thousand bytes.
    public static func decimal(_ count: some BinaryInteger) -> String {
        let units = ["B", "kB", "MB", "GB", "TB", "PB"]
        var value = Double(count)
        var unit = 0
        while value.magnitude >= 1000 && unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        return unit == 0 ? "\(count) B" : String(format: "%.1f %@", value, units[unit])
    }

    /// `4.5 MB/s`: `decimal` per second (rounded to whole bytes).
    public static func rate(_ perSecond: Double) -> String {
        decimal(Int64(perSecond.isFinite ? max(0, perSecond).rounded() : 0)) + "/s"
    }
}
