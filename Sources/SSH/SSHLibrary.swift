import CLibSSH2
import Foundation

/// Process-wide libssh2 state: `libssh2_init` must run once, before any concurrency.
public enum SSHLibrary {
    private static let initResult: Int32 = {
        // Bulk transfers: keep up to 16 MiB of freed heap instead of returning it to the kernel after every few
        // packets (1 GB `cat`: client system time 0.55 → 0.20 s; docs/DECISIONS.md, 2026-11-24).
        essh_keep_heap_top(16 << 20)
        return libssh2_init(0)
    }()

    /// Initialises libssh2 once; every session calls it first. Cheap after the first call.
    public static func ensureInitialised() throws(SSHError) {
        if initResult != 0 {
            throw SSHError(.library, "libssh2_init failed (\(initResult))",
                           "The SSH library could not start; reinstall libssh2-1.")
        }
    }

    /// The libssh2 version this process runs with (`1.10.0`), read at run time.
    public static var version: String {
        guard let p = libssh2_version(0) else { return "unknown" }
        return String(cString: p)
    }

    /// Where the libssh2 this binary was built with came from: "Debian trixie source package libssh2_1.11.1-1+deb13u2
    /// with eSSH's patches 0001-…,0002-… (checksum), linked statically" (Sources/CLibSSH2/libssh2-from-debian.sh).
    /// Always the build's own: CLibSSH2's shim refuses to compile against any other libssh2.
    public static var origin: String {
        essh_libssh2_origin().map { String(cString: $0) } ?? "unknown"
    }

    /// The run-time libssh2 version as (major, minor, patch).
    static var versionNumber: (Int, Int, Int) {
        let parts = version.split(separator: ".").map { Int($0.prefix { $0.isNumber }) ?? 0 }
        return (parts.count > 0 ? parts[0] : 0, parts.count > 1 ? parts[1] : 0, parts.count > 2 ? parts[2] : 0)
    }

    /// Whether this libssh2 hands AES data to OpenSSL a packet at a time (eSSH's patch on the libssh2 it builds;
    /// not in the system's). Measured on a 1 GB `cat` (docs/DECISIONS.md, 2026-11-24): client CPU with aes128-gcm
    /// 0.7 s/GB patched, 3.3 s/GB unpatched; chacha20-poly1305 1.8-1.9 s/GB either way (libssh2's own C code).
    public static var batchesCrypt: Bool { essh_libssh2_crypt_batched() != 0 }
}
