import ArgumentParser
import Basics
import Foundation
import Vault

/// Where a secret given to the vault comes from: the terminal without echo (asked twice), `--secret-file` (the
/// owner's only: a file group or others can read is refused), or `--secret-fd` (a descriptor the caller opened,
/// e.g. `3< file` or a pipe). Never argv or the environment. One final newline of a file or descriptor is dropped.
struct SecretInput: ParsableArguments {
    @Option(name: .customLong("secret-file"), help: ArgumentHelp(
        "Read the secret from this file (mode 0600 or stricter; a file others can read is refused).",
        valueName: "FILE"))
    var file: String?

    @Option(name: .customLong("secret-fd"), help: ArgumentHelp(
        "Read the secret from this open file descriptor (to its end), e.g. --secret-fd 3 3<file.", valueName: "N"))
    var fd: Int32?

    func validate() throws {
        if file != nil && fd != nil { throw ValidationError("Give --secret-file or --secret-fd, not both.") }
        if let fd, fd < 0 { throw ValidationError("--secret-fd takes a descriptor number (0 or more).") }
    }

    /// True when the secret comes from a file or descriptor.
    var given: Bool { file != nil || fd != nil }

    /// The secret's bytes (the caller wipes them); `what` names it in prompts and messages ("the password").
    func read(what: String, prompt: String, confirm: Bool = true) throws -> [UInt8] {
        var bytes: [UInt8]
        if let file {
            bytes = try Self.readPrivateFile(file)
        } else if let fd {
            guard let read = Self.readAll(fd) else {
                throw CommandFailure(.badInput, "Cannot read \(what) from descriptor \(fd): \(String(cString: strerror(errno))).")
            }
            bytes = read
        } else {
            guard TerminalPrompter.hasTerminal else {
                throw CommandFailure(.badInput, "No terminal to ask \(what) on: give --secret-file FILE or --secret-fd N.")
            }
            guard let first = TerminalPrompter.askBytes(prompt, echo: false) else {
                throw CommandFailure(.badInput, "No \(what) was given; nothing was changed.")
            }
            bytes = first
            if confirm {
                var again = TerminalPrompter.askBytes("Again, to confirm: ", echo: false) ?? []
                defer { Wipe.bytes(&again) }
                guard again == bytes else {
                    Wipe.bytes(&bytes)
                    throw CommandFailure(.badInput, "The two entries differ; nothing was changed.")
                }
            }
        }
        if file != nil || fd != nil {
            if bytes.last == 0x0A { bytes.removeLast() }
            if bytes.last == 0x0D { bytes.removeLast() }
        }
        let named = what.prefix(1).uppercased() + what.dropFirst()
        guard !bytes.isEmpty else { throw CommandFailure(.badInput, "\(named) is empty; nothing was changed.") }
        // JSON keeps the vault readable after `age -d`: a secret must be text (and have no NUL).
        guard String(validating: bytes, as: UTF8.self) != nil, !bytes.contains(0) else {
            Wipe.bytes(&bytes)
            throw CommandFailure(.badInput, "\(named) is not UTF-8 text; nothing was changed.")
        }
        return bytes
    }

    static func readPrivateFile(_ path: String) throws -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw FileSystemError(path: path, errno: errno, action: "read") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw FileSystemError(path: path, errno: errno, action: "read") }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw CommandFailure(.badInput, "\(path) is not a regular file; the secret was not read.")
        }
        guard info.st_mode & 0o077 == 0 else {
            throw CommandFailure(.badInput, """
                \(path) can be read by group or others (mode \(String(info.st_mode & 0o777, radix: 8))); the secret \
                was not read. `chmod 600 \(path)` first.
                """)
        }
        guard let bytes = readAll(fd) else { throw FileSystemError(path: path, errno: errno, action: "read") }
        return bytes
    }

    /// Everything readable from `fd` to its end, in one growing buffer wiped as it grows; nil on a read error.
    static func readAll(_ fd: Int32) -> [UInt8]? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(4096)
        var chunk = [UInt8](repeating: 0, count: 4096)
        defer { Wipe.bytes(&chunk) }
        while bytes.count <= 1 << 20 {
            let n = Glibc.read(fd, &chunk, chunk.count)
            if n < 0 && errno == EINTR { continue }
            if n < 0 { Wipe.bytes(&bytes); return nil }
            if n == 0 { break }
            if bytes.count + n > bytes.capacity {
                var grown: [UInt8] = []
                grown.reserveCapacity(bytes.capacity * 2 + n)
                grown += bytes
                Wipe.bytes(&bytes)
                bytes = grown
            }
            bytes += chunk[0..<n]
        }
        return bytes
    }
}
