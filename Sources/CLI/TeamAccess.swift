import Basics
import Foundation
import Inventory
import Team
import Vault

/// Reaching the team database from the command line: libpq's own credentials first (`~/.pgpass`, a client
/// certificate, peer), then the password kept in the vault for this URL, then the terminal (or `--password-file`);
/// a password typed on the terminal is kept in the vault when one exists, so it is asked once. Never argv or the
/// environment: essh clears PGPASSWORD when it starts (`essh`'s entry point).
struct TeamAccess {
    let database: DatabaseOptions
    /// `--password-file`: the team database's password from a file only its owner can read.
    let passwordFile: String?
    /// Seconds to wait for the server.
    let timeout: Int


    /// Opens the team database at `url`, asking for the password only when the server wants one.
    func open(_ url: String) throws -> TeamDatabase {
        try login(url) { password in
            try TeamDatabase.open(url: url, password: password, timeout: timeout)
        }
    }

    /// Runs `connect` with no password (libpq's own sources), else the vault's, else one from the terminal, as the
    /// server asks; `--password-file` alone when given.
    func login<T>(_ url: String, _ connect: ([UInt8]?) throws -> T) throws -> T {
        let parsed = try TeamURL(url)
        if let passwordFile {
            var password = try SecretInput.readPrivateFile(passwordFile)
            defer { Wipe.bytes(&password) }
            if password.last == 0x0A { password.removeLast() }
            return try connect(password)
        }
        do {
            return try connect(nil)
        } catch let error as TeamError where error.kind == .needsPassword {
            // Fall through to the vault and the terminal.
        }
        let vault = try? VaultAccess(database: database)
        if let vault, vault.store.exists,
           let (_, document) = try? vault.unlock(),
           var stored = document.entries[parsed.vaultID]?.password?.copyBytes() {
            defer { Wipe.bytes(&stored) }
            do {
                return try connect(stored)
            } catch let error as TeamError where error.kind == .authenticationFailed {
                TerminalOutput.writeError("essh: the password the vault holds for \(parsed.display) was refused; "
                    + "asking for it.\n")
            }
        }
        guard TerminalPrompter.hasTerminal else {
            throw TeamError(.needsPassword, "PostgreSQL at \(parsed.display) asks for a password: put it in "
                + "~/.pgpass (mode 0600), or give --password-file FILE, or run this on a terminal to be asked.")
        }
        guard var typed = TerminalPrompter.askBytes("Password for \(parsed.display): ", echo: false),
              !typed.isEmpty else {
            throw TeamError(.needsPassword, "No password was given for \(parsed.display); nothing was changed.")
        }
        defer { Wipe.bytes(&typed) }
        let connection = try connect(typed)
        remember(typed, for: parsed, vault: vault)
        return connection
    }

    /// Keeps a password that worked in the vault, when there is one; says where it went.
    private func remember(_ password: [UInt8], for url: TeamURL, vault: VaultAccess?) {
        guard let vault, vault.store.exists else {
            TerminalOutput.writeError("essh: the password was not kept (no vault: `essh vault init` makes one, or "
                + "put it in ~/.pgpass).\n")
            return
        }
        do {
            let key = try vault.unlock().key
            var copy = password
            let secret = Secret(taking: &copy)
            try vault.store.update(with: key) { (document: inout VaultDocument) throws(VaultError) in
                document.set(.password, secret, id: url.vaultID, name: "team database " + url.display)
            }
            TerminalOutput.writeError("essh: the password for \(url.display) is kept in the vault.\n")
        } catch {
            TerminalOutput.writeError("essh: the password was not kept in the vault: \(UserFacing.sentence(error))\n")
        }
    }
}
