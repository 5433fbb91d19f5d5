import Foundation
import LocalProcess

/// One more OpenSSH server on 127.0.0.1 for a single test, configured by that test: only an RSA host key, a cipher
/// list, a Banner. It uses the harness's host keys, test user and authorized_keys (so `TestServers`' keys log in),
/// runs in the foreground as our child (`sshd -D -e`) and is stopped by `stop()`. Needs root, like the harness.
public final class ExtraSSHD: Sendable {
    public let port: Int
    public let host = "127.0.0.1"
    /// sshd's own log (its stderr): what it offered, refused, and why.
    public let logPath: String
    private let pid: pid_t
    private let dir: TempDir

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Starts sshd with the harness's settings, the host keys `hostKeys` (`ed25519`, `ecdsa`, `rsa`) and `extra`
    /// config lines (`Ciphers aes256-gcm@openssh.com`, `Banner /path`), and waits until it listens. `sftp` is the
    /// sftp subsystem's command (`internal-sftp -P posix-rename` for a server refusing posix-rename);
    /// nil: no sftp subsystem at all. `authorizedKeys` replaces the harness's authorized_keys (a file sshd's
    /// StrictModes accepts: `TestUserFolder`), `maxAuthTries` its MaxAuthTries (sshd takes a setting's first value,
    /// so these cannot come in `extra`).
    public init(servers: TestServers, hostKeys: [String] = ["ed25519", "ecdsa", "rsa"], extra: [String] = [],
                sftp: String? = "internal-sftp", authorizedKeys: String? = nil, maxAuthTries: Int = 20) throws {
        let dir = try TempDir()
        chmod(dir.path, 0o755)
        let port = try Self.freePort()
        var lines = [
            "Port \(port)", "ListenAddress 127.0.0.1",
            "PidFile none", "AuthorizedKeysFile \"\(authorizedKeys ?? servers.authorizedKeys)\"", "StrictModes yes",
            "LogLevel DEBUG1",
            "UsePAM no", "PasswordAuthentication yes", "PubkeyAuthentication yes", "KbdInteractiveAuthentication no",
            "PrintMotd no", "PrintLastLog no", "AllowUsers \(servers.user)", "MaxAuthTries \(maxAuthTries)",
        ]
        if let sftp { lines.append("Subsystem sftp \(sftp)") }
        lines += hostKeys.map { "HostKey \"\(servers.hostKeys)/ssh_host_\($0)_key\"" }
        lines += extra
        let config = dir.file("sshd_config")
        try (lines.joined(separator: "\n") + "\n").write(toFile: config, atomically: true, encoding: .utf8)
        logPath = dir.file("sshd.log")
        let log = open(logPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard log >= 0 else { throw Failure(description: "cannot create \(logPath)") }
        defer { close(log) }
        let devNull = open("/dev/null", O_RDONLY | O_CLOEXEC)
        defer { close(devNull) }
        do {
            pid = try ChildProcess.spawn("/usr/sbin/sshd", ["-D", "-e", "-f", config], stdin: devNull, stdout: log,
                                         stderr: log, closeOtherDescriptors: true, newSession: true)
        } catch {
            dir.cleanup()
            throw Failure(description: "could not start sshd: \(error.reason)")
        }
        self.port = port
        self.dir = dir
        for _ in 0..<200 {
            if Self.listening(port) { return }
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid {
                let why = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
                dir.cleanup()
                throw Failure(description: "sshd stopped at start: \(why)")
            }
            usleep(20_000)
        }
        stop()
        throw Failure(description: "sshd did not listen on port \(port) within 4 s")
    }

    /// Stops sshd (and the sessions it started: they are in its process group's session) and removes its folder.
    public func stop() {
        kill(pid, SIGTERM)
        if ChildProcess.wait(pid, timeout: 5) == nil { kill(pid, SIGKILL) }
        dir.cleanup()
    }

    /// sshd's log so far.
    public var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// The `known_hosts` line OpenSSH would write for this server and host key type (`[127.0.0.1]:PORT TYPE DATA`).
    public func knownHostsLine(servers: TestServers, keyType: String) throws -> String {
        let pub = try String(contentsOfFile: "\(servers.hostKeys)/ssh_host_\(keyType)_key.pub", encoding: .utf8)
        let fields = pub.split(separator: " ")
        return "[\(host)]:\(port) \(fields[0]) \(fields[1])"
    }

    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket failed") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard bound else { throw Failure(description: "bind failed") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    static func listening(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}
