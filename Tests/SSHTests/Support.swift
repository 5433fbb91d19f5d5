import Foundation
import SSH
import TestSupport

/// Options for the harness's main sshd (key and password logins), trusting its host keys.
func options(_ s: TestServers, port: Int? = nil, key: String? = "id_ed25519") -> ConnectOptions {
    var o = ConnectOptions(host: s.host, port: port ?? s.port, user: s.user, knownHostsFile: s.knownHosts)
    o.globalKnownHostsFiles = []
    o.identityFiles = key.map { [s.key($0)] } ?? []
    o.useAgent = false
    o.connectTimeout = 5
    return o
}

func connect(_ s: TestServers, _ o: ConnectOptions? = nil, prompter: Prompter = NonInteractivePrompter())
    throws -> SSHSession
{
    try SSHSession.connect(o ?? options(s), prompter: prompter)
}

/// Runs `body` and returns the SSHError it threw (nil if it did not throw one).
func sshError(_ body: () throws -> Void) -> SSHError? {
    do { try body() } catch let e as SSHError { return e } catch { return nil }
    return nil
}

/// A prompter for tests that records what it was asked and answers as told.
final class ScriptedPrompter: Prompter, @unchecked Sendable {
    let hostKeyAnswer: HostKeyDecision
    let passwordAnswer: String?
    let passphraseAnswer: String?
    let lock = NSLock()
    private(set) var questions: [String] = []

    init(hostKey: HostKeyDecision = .reject, password: String? = nil, passphrase: String? = nil) {
        hostKeyAnswer = hostKey
        passwordAnswer = password
        passphraseAnswer = passphrase
    }

    private func note(_ q: String) { lock.lock(); questions.append(q); lock.unlock() }
    func confirmHostKey(_ q: HostKeyQuestion) -> HostKeyDecision { note("hostkey \(q.key.fingerprint)"); return hostKeyAnswer }
    func password(user: String, host: String, attempt: Int) -> String? { note("password"); return passwordAnswer }
    func passphrase(keyFile: String, attempt: Int) -> String? { note("passphrase"); return passphraseAnswer }
    func keyboardInteractive(name: String, instruction: String, prompts: [(text: String, echo: Bool)]) -> [String]? {
        note("kbd " + prompts.map(\.text).joined(separator: "|"))
        return passwordAnswer.map { p in prompts.map { _ in p } }
    }
}

/// A TCP listener on 127.0.0.1 that never accepts, with its backlog filled, so new connections hang (SYNs dropped).
final class BlackholeListener {
    let port: Int
    private var fds: [Int32] = []

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        addr.sin_port = 0
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) } }
        listen(fd, 0)
        _ = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) }
        }
        port = Int(UInt16(bigEndian: addr.sin_port))
        fds.append(fd)
        // Fill the backlog: these connections complete in the kernel and are never accepted.
        for _ in 0..<3 {
            let c = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            _ = fcntl(c, F_SETFL, O_NONBLOCK)
            _ = withUnsafePointer(to: &addr) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(c, $0, len) }
            }
            fds.append(c)
        }
        usleep(100_000)
    }

    deinit { for fd in fds { close(fd) } }
}
