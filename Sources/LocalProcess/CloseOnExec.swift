import Foundation

/// Descriptors made close-on-exec as they are created, so a program another thread starts at that moment (dma's
/// background deliverer, a test helper) cannot inherit them: an inherited pipe write end keeps the reader (`wc -l`)
/// from ever seeing end-of-file. pipe2, mkostemp and posix_spawn_file_actions_addclosefrom_np need _GNU_SOURCE, so
/// Swift's Glibc module does not show them; they are looked up in the C library by name instead, with the
/// two-step fallbacks only for a C library that lacks them.
public enum CloseOnExec {
    private typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32
    private typealias Mkostemp = @convention(c) (UnsafeMutablePointer<CChar>, Int32) -> Int32
    private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32

    private nonisolated(unsafe) static let pipe2: Pipe2? = symbol("pipe2")
    private nonisolated(unsafe) static let mkostemp: Mkostemp? = symbol("mkostemp")
    private nonisolated(unsafe) static let addCloseFrom: AddCloseFrom? = symbol("posix_spawn_file_actions_addclosefrom_np")

    private static func symbol<T>(_ name: String) -> T? {
        // A null handle is RTLD_DEFAULT: the symbol as the program's libraries provide it.
        guard let address = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else { return nil }
        return unsafeBitCast(address, to: T.self)
    }

    /// A new pipe, both ends close-on-exec: (read end, write end), or nil with errno set.
    public static func pipe() -> (read: Int32, write: Int32)? {
        var fds: [Int32] = [0, 0]
        if let pipe2 {
            guard pipe2(&fds, O_CLOEXEC) == 0 else { return nil }
        } else {
            guard Glibc.pipe(&fds) == 0 else { return nil }
            fds.forEach { _ = fcntl($0, F_SETFD, FD_CLOEXEC) }
        }
        return (fds[0], fds[1])
    }

    /// mkstemp, close-on-exec: creates a file from `template` (ending in XXXXXX, replaced by its name) readable
    /// and writable by its owner only. The descriptor, or -1 with errno set.
    public static func temporaryFile(_ template: inout [CChar]) -> Int32 {
        template.withUnsafeMutableBufferPointer { buffer in
            if let mkostemp { return mkostemp(buffer.baseAddress!, O_CLOEXEC) }
            let fd = mkstemp(buffer.baseAddress!)
            if fd >= 0 { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
            return fd
        }
    }

    /// Adds "close every descriptor from `lowest` on" to `actions`; false when the C library cannot.
    static func addCloseFrom(_ actions: inout posix_spawn_file_actions_t, _ lowest: Int32) -> Bool {
        guard let addCloseFrom else { return false }
        return addCloseFrom(&actions, lowest) == 0
    }
}
