import Basics
import Foundation
import LocalProcess
import SSH

/// A new key pair in OpenSSH's format, made by Debian's `ssh-keygen` (openssh-client): eSSH does not write OpenSSH's
/// encrypted key format itself (docs/DECISIONS.md, 2026-11-24). The passphrase never goes into ssh-keygen's argv or
/// environment: it is written twice (ssh-keygen asks twice) into a pipe that is ssh-keygen's stdin, and with
/// `SSH_ASKPASS_REQUIRE=force` ssh-keygen asks the `askpass` program, which reads one line from that stdin (essh
/// itself in its askpass mode, `ESSH_ASKPASS=stdin`). ssh-keygen runs in a session of its own, without a terminal.
public struct KeyGeneration: Sendable {
    /// The key types offered.
    public enum KeyType: String, Sendable, CaseIterable {
        case ed25519, ecdsa, rsa
    }

    public var type: KeyType
    /// nil: ssh-keygen's default (ecdsa 256, rsa 3072). ed25519 has one size.
    public var bits: Int?
    /// The private key's path; the public key goes beside it with `.pub`.
    public var file: String
    public var comment: String

    public init(type: KeyType = .ed25519, bits: Int? = nil, file: String, comment: String) {
        self.type = type
        self.bits = bits
        self.file = file
        self.comment = comment
    }

    /// `~/.ssh/id_TYPE`, where OpenSSH looks for keys.
    public static func defaultFile(_ type: KeyType, home: String) -> String { "\(home)/.ssh/id_\(type.rawValue)" }

    /// Refuses what ssh-keygen would refuse or ask about: bits that do not fit the type, a key or `.pub` file that
    /// exists already (never overwritten), a folder that does not exist.
    public func check() throws(KeyProblem) {
        if let bits {
            switch type {
            case .ed25519:
                throw KeyProblem(.badRequest, "--bits is not for ed25519 keys (they have one size).")
            case .ecdsa where ![256, 384, 521].contains(bits):
                throw KeyProblem(.badRequest, "--bits \(bits): ecdsa keys are 256, 384 or 521 bits.")
            case .rsa where !(2048...16384).contains(bits):
                throw KeyProblem(.badRequest, "--bits \(bits): give an RSA size from 2048 to 16384.")
            default: break
            }
        }
        for path in [file, file + ".pub"] where FileManager.default.fileExists(atPath: path)
            || (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) != nil {
            throw KeyProblem(.badRequest, "\(path) exists already: eSSH never overwrites a key. Choose another "
                             + "--file, or move the old key away first.")
        }
        let folder = (file as NSString).deletingLastPathComponent
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.isEmpty ? "." : folder, isDirectory: &isFolder),
              isFolder.boolValue else {
            throw KeyProblem(.badRequest, "The folder \(folder) does not exist: make it first (mode 700 for ~/.ssh).")
        }
    }

    /// Makes the key pair: `passphrase` empty for a key without one. `askpass` is the program that answers
    /// ssh-keygen's questions from its stdin (see the type's note). Returns the new public key. The private key is
    /// 0600, the public one 0644. A key meant to be encrypted that came out without a passphrase is removed again.
    public func generate(passphrase: [UInt8], askpass: String, keygen: String = "/usr/bin/ssh-keygen")
        throws(KeyProblem) -> PublicKey {
        try check()
        guard FileManager.default.isExecutableFile(atPath: keygen) else {
            throw KeyProblem(.generateFailed, "\(keygen) is missing: install openssh-client (apt-get install "
                             + "openssh-client).")
        }
        guard !passphrase.contains(10) && !passphrase.contains(13) && !passphrase.contains(0) else {
            throw KeyProblem(.badRequest, "A passphrase cannot hold a line break or a NUL byte.")
        }
        var arguments = ["-q", "-t", type.rawValue, "-f", file, "-C", comment]
        if let bits { arguments += ["-b", String(bits)] }
        var environment = ProcessInfo.processInfo.environment
        let input: Int32
        if passphrase.isEmpty {
            arguments += ["-N", ""]
            input = open("/dev/null", O_RDONLY | O_CLOEXEC)
        } else {
            guard let pipe = CloseOnExec.pipe() else {
                throw KeyProblem(.generateFailed, "Could not make a pipe for ssh-keygen: \(String(cString: strerror(errno))).")
            }
            // Twice: ssh-keygen asks for the passphrase, then for it again. Far below a pipe's buffer, so this
            // does not block before ssh-keygen reads.
            let answer = passphrase + [10] + passphrase + [10]
            let written = answer.withUnsafeBytes { writeAll(pipe.write, $0) }
            close(pipe.write)
            guard written else {
                close(pipe.read)
                throw KeyProblem(.generateFailed, "Could not hand the passphrase to ssh-keygen.")
            }
            input = pipe.read
            environment["SSH_ASKPASS"] = askpass
            environment["SSH_ASKPASS_REQUIRE"] = "force"
            environment["ESSH_ASKPASS"] = "stdin"
        }
        defer { close(input) }
        guard let output = CloseOnExec.pipe() else {
            throw KeyProblem(.generateFailed, "Could not make a pipe for ssh-keygen: \(String(cString: strerror(errno))).")
        }
        let pid: pid_t
        do {
            pid = try ChildProcess.spawn(keygen, arguments, environment: environment, stdin: input,
                                         stdout: output.write, stderr: output.write, closeOtherDescriptors: true,
                                         newSession: true)
        } catch {
            close(output.read)
            close(output.write)
            throw KeyProblem(.generateFailed, "Could not start \(keygen): \(error.reason).")
        }
        close(output.write)
        var said: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = read(output.read, &buffer, buffer.count)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            if said.count < 65536 { said += buffer[0..<n] }
        }
        close(output.read)
        let status = ChildProcess.wait(pid)
        let message = String(decoding: said, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard status == .exited(0), FileManager.default.fileExists(atPath: file),
              FileManager.default.fileExists(atPath: file + ".pub") else {
            throw KeyProblem(.generateFailed, "ssh-keygen could not make the key"
                             + (message.isEmpty ? "" : ": \(message)") + " (exit \(status.shellStatus)).")
        }
        if !passphrase.isEmpty && PrivateKeyFile.isEncrypted(file) != true {
            unlink(file)
            unlink(file + ".pub")
            throw KeyProblem(.generateFailed, "ssh-keygen wrote the key without the passphrase: removed it again.")
        }
        chmod(file, 0o600)
        chmod(file + ".pub", 0o644)
        return try PublicKey.read(path: file + ".pub")
    }
}
