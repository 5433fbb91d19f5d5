import Foundation

/// A private ssh-agent holding `count` fresh ed25519 keys (files `key1` … in the folder, comments `agent-key-1` …),
/// for tests of which key is offered first: a server authorizing only the last one, with a small `MaxAuthTries`,
/// disconnects a client that offers them in the agent's order. `stop()` ends the agent.
public final class KeyedAgent: Sendable {
    /// The private key files, in the agent's order.
    public let keys: [String]
    /// The agent's socket (`SSH_AUTH_SOCK`).
    public let socket: String
    public let pid: pid_t

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public init(in folder: TempDir, count: Int = 4) throws {
        keys = (1...count).map { folder.file("key\($0)") }
        for (i, key) in keys.enumerated() {
            let made = try Binary.run("/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C",
                                                              "agent-key-\(i + 1)", "-f", key])
            guard made.status == 0 else { throw Failure(description: "ssh-keygen: \(made.err)") }
        }
        socket = folder.file("agent.sock")
        pid = try Spawn.start("/usr/bin/ssh-agent", ["-D", "-a", socket])
        for _ in 0..<100 where !FileManager.default.fileExists(atPath: socket) { usleep(20_000) }
        for key in keys {
            let add = try Binary.run("/usr/bin/ssh-add", ["-q", key], environment: ["SSH_AUTH_SOCK": socket])
            guard add.status == 0 else {
                stop()
                throw Failure(description: "ssh-add \(key): \(add.err)")
            }
        }
    }

    /// The public key line of key `n` (1…count), for an authorized_keys file.
    public func publicKey(_ n: Int) throws -> String {
        try String(contentsOfFile: keys[n - 1] + ".pub", encoding: .utf8)
    }

    /// Ends the agent. SIGKILL: children of the test runner inherit its blocked signal mask, so SIGTERM would never
    /// arrive.
    public func stop() {
        kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
    }
}
