import Basics

/// Why a key could not be installed or made (`KeyInstall`, `KeyGeneration`).
public struct KeyProblem: UserFacingError, Equatable {
    public enum Kind: Sendable, Equatable {
        /// The file given is no OpenSSH public key.
        case notAPublicKey
        /// No key to install was given and none of the default ones exists.
        case noKey
        /// The server refused or failed the append.
        case installFailed
        /// The key is there, but a login with it alone did not work.
        case verifyFailed
        /// Key generation was refused before it began (a file exists, bad type or bits, passphrases differ).
        case badRequest
        /// ssh-keygen failed or is missing.
        case generateFailed
    }

    public let kind: Kind
    public let message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }
}
