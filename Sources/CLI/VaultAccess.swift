import Basics
import Foundation
import Inventory
import LocalProcess
import Operations
import Vault

/// What every `essh vault` command shares: the vault file, the agent's socket, the settings, and getting the key —
/// from the unlock agent when one answers, else from the passphrase (the `vault.passphrase_command` program when
/// set, else the terminal), one scrypt run per command.
struct VaultAccess {
    let store: VaultStore
    let socketPath: String
    let settings: Settings

    init(database: DatabaseOptions) throws {
        let environment = ProcessInfo.processInfo.environment
        store = VaultStore(path: VaultStore.defaultPath(environment: environment))
        socketPath = VaultAgent.socketPath(environment: environment)
        settings = Settings(stored: try ConfigCommand.stored(database))
    }

    /// The passphrase source for this run.
    var passphraseSource: any VaultPassphraseSource {
        settings.vaultPassphraseCommand.isEmpty
            ? TerminalVaultPassphrase() : CommandVaultPassphrase(command: settings.vaultPassphraseCommand)
    }

    /// The key held by a running agent, when it still opens the vault (a stale one, after `passwd` elsewhere, is
    /// ignored).
    func agentKey() throws(VaultError) -> AgeKey? {
        guard let key = try VaultAgent.key(socketPath: socketPath, maxWorkFactor: store.maxReadWorkFactor) else {
            return nil
        }
        do {
            _ = try store.read(with: key)
            return key
        } catch .cannotOpen(_, .keyChanged) {
            return nil
        }
    }

    /// The key and document: the agent's, else unlocked with the passphrase.
    func unlock() throws(VaultError) -> (key: AgeKey, document: VaultDocument) {
        if !store.exists { throw .missing(path: store.path) }
        if let key = try agentKey() { return (key, try store.read(with: key)) }
        var passphrase = try passphraseSource.passphrase(prompt: "Vault passphrase: ")
        defer { Wipe.bytes(&passphrase) }
        return try store.unlock(passphrase: passphrase)
    }

    /// Stores one secret of a saved server under its stable id: `essh vault set` and `essh key generate --remember`.
    func remember(_ kind: VaultSecretKind, _ secret: Secret, for server: Server, key: AgeKey) throws(VaultError) {
        try store.update(with: key) { (document: inout VaultDocument) throws(VaultError) in
            document.set(kind, secret, id: server.uid, name: server.name)
        }
    }

    /// A new vault passphrase: `input`'s file or descriptor, else the passphrase command, else the terminal twice.
    func newPassphrase(_ input: SecretInput) throws -> [UInt8] {
        if !input.given && !settings.vaultPassphraseCommand.isEmpty {
            return try CommandVaultPassphrase(command: settings.vaultPassphraseCommand).passphrase(prompt: "")
        }
        return try input.read(what: "the new vault passphrase", prompt: "New vault passphrase: ")
    }

    /// Starts the unlock agent (`essh vault agent`, hidden) in a session of its own, gives it `key` on a pipe, and
    /// waits for its `ready` line.
    func startAgent(key: AgeKey, idleSeconds: Int) throws -> pid_t {
        guard let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else {
            throw VaultError.agent("Cannot find eSSH's own program to start the vault agent.")
        }
        guard let input = CloseOnExec.pipe(), let output = CloseOnExec.pipe() else {
            throw VaultError.agent("Cannot open a pipe to the vault agent.")
        }
        let null = open("/dev/null", O_RDWR | O_CLOEXEC)
        defer { if null >= 0 { close(null) } }
        let pid: pid_t
        do {
            pid = try ChildProcess.spawn(executable, ["vault", "agent", "--socket", socketPath,
                                                      "--idle", String(idleSeconds)],
                                         stdin: input.read, stdout: output.write, stderr: null,
                                         closeOtherDescriptors: true, newSession: true)
        } catch {
            [input.read, input.write, output.read, output.write].forEach { close($0) }
            throw VaultError.agent("Cannot start the vault agent: \(error.message)")
        }
        close(input.read)
        close(output.write)
        var bytes = key.exported()
        _ = bytes.withUnsafeBytes { writeAll(input.write, $0) }
        Wipe.bytes(&bytes)
        close(input.write)
        var reply: [UInt8] = []
        var byte: UInt8 = 0
        var poller = pollfd(fd: output.read, events: Int16(POLLIN), revents: 0)
        let deadline = Date().addingTimeInterval(10)
        while reply.count < 400 && deadline.timeIntervalSinceNow > 0 {
            if poll(&poller, 1, 200) <= 0 { continue }
            if read(output.read, &byte, 1) != 1 { break }
            if byte == 0x0A { break }
            reply.append(byte)
        }
        close(output.read)
        let line = String(decoding: reply, as: UTF8.self)
        guard line == "ready" else {
            kill(pid, SIGTERM)
            throw VaultError.agent(line.isEmpty ? "The vault agent did not start." : line)
        }
        return pid
    }
}

extension VaultAccess {
    /// The `vault` credential source for one run of a command (one server, or a whole fleet): unlocked once, the
    /// first time a server's secret is needed, the way every `essh vault` command unlocks (`unlock()`).
    static func secrets(_ database: DatabaseOptions) -> VaultSecrets {
        VaultSecrets { () throws(VaultError) -> VaultDocument in
            let access: VaultAccess
            do {
                access = try VaultAccess(database: database)
            } catch {
                throw .noPassphrase("The settings could not be read to open the vault: \(error)")
            }
            return try access.unlock().document
        }
    }
}
