/// Where the vault passphrase comes from when no unlock agent holds the key: the seam each front end fills. The
/// command line has two (the terminal without echo, and the `vault.passphrase_command` program); the interface will
/// ask in a dialog; a shared command runner (issue 17 §2's `command` credential source) can take the program's place.
public protocol VaultPassphraseSource {
    /// The vault passphrase as bytes (the caller wipes them), asked with `prompt` where a person is asked; a
    /// `VaultError` says why there is none.
    func passphrase(prompt: String) throws(VaultError) -> [UInt8]
}
