import Operations

/// The `vault` credential source on the command line until the vault is wired into the commands: every request
/// says so, and the person is asked instead (`CredentialPrompter`).
struct VaultNotBuiltIn: SecretProvider {
    static let sentence = """
        The vault is not built into this command yet: type the password, give --password-file FILE, or set the \
        server's credential to ask or command:"PROGRAM ARGS" (essh servers edit NAME --credential …).
        """

    func password(forServer uid: String) throws(CredentialUnavailable) -> String {
        throw CredentialUnavailable(Self.sentence)
    }

    func passphrase(forServer uid: String, keyFile: String) throws(CredentialUnavailable) -> String {
        throw CredentialUnavailable(Self.sentence)
    }

    func answers(forServer uid: String, prompts: [String]) throws(CredentialUnavailable) -> [String] {
        throw CredentialUnavailable(Self.sentence)
    }
}
