import Foundation
import LocalProcess

/// The real OpenSSH servers that `Tests/Harness/test-servers.sh start` runs on loopback (`make test` starts them).
/// Integration tests call `TestServers.require()`: when the servers are not running the test fails with a message
/// saying how to start them — it never passes silently.
public struct TestServers: Sendable {
    public let host: String
    public let hasIPv6: Bool
    public let port: Int
    public let kbdPort: Int
    public let user: String
    public let home: String
    public let password: String
    public let passphrase: String
    public let keys: String
    public let hostKeys: String
    public let knownHosts: String
    public let ed25519Fingerprint: String
    public let data200M: String
    public let stateDir: String
    /// The authorized_keys file the harness's sshd instances read (root-owned, outside the checkout).
    public let authorizedKeys: String
    /// Whether the test user may run `sudo true` after typing its password (sudo installed; nothing else allowed).
    public let sudo: Bool

    /// The jump-host topology in network namespaces (Tests/Harness/test-servers.sh's header).
    public let jump: JumpTopology

    /// One sshd of the jump topology: its address inside its namespace, its port, its own host keys.
    public struct NamespaceServer: Sendable {
        public let host: String
        public let port: Int
        /// `ssh-keygen -lf` of its ed25519 host key.
        public let fingerprint: String
        /// The network namespace it runs in (`ip netns exec NAME …`).
        public let netns: String
        /// Its sshd log (LogLevel VERBOSE: one `Accepted` line per login).
        public let log: String
        /// The folder of its host keys (`ssh_host_ed25519_key`, `ssh_host_ecdsa_key`).
        public let hostKeys: String
    }

    /// root → b1 → t1, and root → b1 → b2 → t2; t1 and t2 are reachable only through the bastions.
    public struct JumpTopology: Sendable {
        public let b1: NamespaceServer
        public let t1: NamespaceServer
        public let b2: NamespaceServer
        public let t2: NamespaceServer
        /// Ports of b1's variants: `AllowTcpForwarding no`, and `PermitOpen` allowing only t1's closed port.
        public let b1NoForwardingPort: Int
        public let b1PermitOpenPort: Int
        /// In t1's namespace: a port nothing listens on, and one whose listener never accepts (connections hang).
        public let t1ClosedPort: Int
        public let t1SilentPort: Int
        /// known_hosts holding every topology server's keys, as OpenSSH writes them.
        public let knownHosts: String
    }

    /// A key file in the harness's key folder (`id_ed25519`, `id_ecdsa`, `id_ed25519_pass`, `id_rsa`, `id_rsa_pass`,
    /// `id_unauthorized`); the passphrase of the `_pass` keys is `passphrase`.
    public func key(_ name: String) -> String { keys + "/" + name }

    /// The public half of a host key the servers do not use, to play a server whose key changed.
    public var otherHostKeyLine: String {
        (try? String(contentsOfFile: hostKeys + "/other_ed25519_key.pub", encoding: .utf8)) ?? ""
    }

    public struct NotRunning: Error, CustomStringConvertible {
        public let description: String
    }

    /// Reads the servers' description, or throws saying to run `make test`.
    public static func require() throws -> TestServers {
        let path = ProcessInfo.processInfo.environment["ESSH_TEST_SERVERS"]
            ?? (RepoPaths.root + "/.test-servers/servers.env")
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw NotRunning(description: """
                The real test sshd is not running (no \(path)). Run `make test`, which starts it, \
                or `Tests/Harness/test-servers.sh start` before `swift test`.
                """)
        }
        var values: [String: String] = [:]
        for line in text.split(separator: "\n") {
            guard let eq = line.firstIndex(of: "=") else { continue }
            values[String(line[..<eq])] = String(line[line.index(after: eq)...])
        }
        func v(_ key: String) throws -> String {
            guard let value = values["ESSH_TEST_" + key] else {
                throw NotRunning(description: "\(path) lacks ESSH_TEST_\(key): restart the servers with `make test`.")
            }
            return value
        }
        func server(_ name: String) throws -> NamespaceServer {
            NamespaceServer(host: try v(name + "_HOST"), port: Int(try v(name + "_PORT")) ?? 0,
                            fingerprint: try v(name + "_FINGERPRINT"), netns: try v(name + "_NETNS"),
                            log: try v(name + "_LOG"), hostKeys: try v(name + "_HOSTKEYS"))
        }
        return TestServers(
            host: try v("HOST"), hasIPv6: try v("IPV6") == "yes", port: Int(try v("PORT")) ?? 0,
            kbdPort: Int(try v("KBD_PORT")) ?? 0, user: try v("USER"), home: try v("HOME"),
            password: try v("PASSWORD"), passphrase: try v("PASSPHRASE"), keys: try v("KEYS"),
            hostKeys: try v("HOSTKEYS"), knownHosts: try v("KNOWN_HOSTS"),
            ed25519Fingerprint: try v("ED25519_FINGERPRINT"), data200M: try v("DATA_200M"),
            stateDir: try v("STATE"), authorizedKeys: try v("AUTHORIZED_KEYS"), sudo: values["ESSH_TEST_SUDO"] == "yes",
            jump: JumpTopology(
                b1: try server("B1"), t1: try server("T1"), b2: try server("B2"), t2: try server("T2"),
                b1NoForwardingPort: Int(try v("B1_NOFWD_PORT")) ?? 0,
                b1PermitOpenPort: Int(try v("B1_PERMITOPEN_PORT")) ?? 0,
                t1ClosedPort: Int(try v("T1_CLOSED_PORT")) ?? 0, t1SilentPort: Int(try v("T1_SILENT_PORT")) ?? 0,
                knownHosts: try v("JUMP_KNOWN_HOSTS")))
    }
}

/// Where things are in the checkout, found from this file's path.
public enum RepoPaths {
    /// The repository's top folder.
    public static var root: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
    }

    /// The shared conformance data beside the repository (`../shared`), read at test time, never copied in.
    public static var shared: String {
        URL(fileURLWithPath: root).deletingLastPathComponent().appendingPathComponent("shared").path
    }
}

/// A fresh private folder for one test, removed with `cleanup()`.
public struct TempDir: Sendable {
    public let path: String
    public init() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("essh-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        path = base.path
    }
    public func file(_ name: String) -> String { path + "/" + name }
    public func cleanup() { try? FileManager.default.removeItem(atPath: path) }

    /// Writes an executable script (mode 755) at `path` through a close-on-exec descriptor. Foundation's writers
    /// leave theirs inheritable: a program another test starts at that moment (tmux, sleep) would keep the file
    /// open for writing, and running the script would fail with "Text file busy" for as long as that program lives.
    public func writeScript(_ text: String, to path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
        guard fd >= 0 else { throw TmuxSession.Failure(description: "Could not create \(path): \(errno)") }
        defer { close(fd) }
        let written = Array(text.utf8).withUnsafeBytes { writeAll(fd, $0) }
        guard written else { throw TmuxSession.Failure(description: "Could not write \(path): \(errno)") }
        fchmod(fd, 0o755)
    }
}
