import Foundation

/// A small tmpfs (1 MiB unless told) owned by the harness's test user, for "disk full" on the server side; unmounted
/// and removed by `remove()` or when released. Needs root (the harness runs as root).
public final class SmallTmpfs: @unchecked Sendable {
    public let path: String
    private var mounted = false

    public init(bytes: Int = 1 << 20, owner: String = "essh-test") throws {
        path = "/tmp/essh-small-tmpfs-\(UUID().uuidString)"
        guard mkdir(path, 0o755) == 0 else { throw Failure(description: "mkdir \(path): \(errno)") }
        guard mount("tmpfs", path, "tmpfs", 0, "size=\(bytes),mode=0755") == 0 else {
            let code = errno
            rmdir(path)
            throw Failure(description: "mount tmpfs at \(path): \(String(cString: strerror(code))) (needs root)")
        }
        mounted = true
        guard let pw = getpwnam(owner) else { throw Failure(description: "no user \(owner)") }
        chown(path, pw.pointee.pw_uid, pw.pointee.pw_gid)
    }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public func remove() {
        if mounted {
            _ = umount2(path, Int32(MNT_DETACH))
            mounted = false
        }
        rmdir(path)
    }

    deinit { remove() }
}
