/// The `vault` credential source until the vault is wired into the front ends (the command line and the
/// interface's fleet runs): every request says so; `CredentialPrompter` then asks the person, a fleet run reports the
/// server without a password. One type for both front ends, so one place replaces it.
public struct VaultNotBuiltIn: SecretProvider {
    public init() {}

    /// What every request says.
    public static let sentence = """
        The vault is not built into this command yet: type the password, give --password-file FILE, or set the \
        server's credential to ask or command:"PROGRAM ARGS" (essh servers edit NAME --credential …).
        """

    public func password(forServer uid: String) throws(CredentialUnavailable) -> String {
        throw CredentialUnavailable(Self.sentence)
    }

    public func passphrase(forServer uid: String, keyFile: String) throws(CredentialUnavailable) -> String {
        throw CredentialUnavailable(Self.sentence)
    }

    public func answers(forServer uid: String, prompts: [String]) throws(CredentialUnavailable) -> [String] {
        throw CredentialUnavailable(Self.sentence)
    }
}
