import Foundation
import Inventory
import LocalProcess
import Vault

/// The vault passphrase asked on the controlling terminal without echo (as ssh asks a password).
struct TerminalVaultPassphrase: VaultPassphraseSource {
    func passphrase(prompt: String) throws(VaultError) -> [UInt8] {
        guard TerminalPrompter.hasTerminal else {
            throw .noPassphrase("""
                No terminal to ask the vault passphrase on. Run `essh vault unlock` in a terminal first, or set \
                vault.passphrase_command (`essh config set vault.passphrase_command 'pass show essh'`).
                """)
        }
        guard let bytes = TerminalPrompter.askBytes(prompt, echo: false), !bytes.isEmpty else {
            throw .noPassphrase("No vault passphrase was given; nothing was changed.")
        }
        return bytes
    }
}

/// The vault passphrase printed by a program the person named (`vault.passphrase_command`, e.g. `pass show essh`):
/// run the one way eSSH runs a secret's program (`SecretCommand`: its words split as a server's `command:` credential
/// source splits them, no shell, stdin and stderr /dev/null, the output never logged or shown, one final newline
/// dropped), with a longer time limit than a server's source, for a passphrase agent's question.
struct CommandVaultPassphrase: VaultPassphraseSource {
    let command: String
    var timeout: TimeInterval = 60

    func passphrase(prompt: String) throws(VaultError) -> [UInt8] {
        do {
            var secret = try SecretCommand.run(CredentialSource.words(command), timeout: timeout)
            defer { secret.removeAll() }
            return Array(secret.utf8)
        } catch {
            throw .passphraseCommand("vault.passphrase_command: \(error.message) Nothing was changed.")
        }
    }
}
