import Basics
import Foundation
import Inventory
import LocalProcess

/// The `command:` credential source: a program's output is the server's password, its key's passphrase and the
/// answer to each hidden keyboard-interactive prompt (`SecretCommand`: no shell, a timeout, the output never shown).
/// The server's id is not needed: the command is the server's own.
public struct CommandSecretProvider: SecretProvider {
    /// The command line as written (`pass show servers/db1`).
    public let line: String
    /// Seconds the program may take.
    public let timeout: TimeInterval
    /// The folders a program named without a `/` is looked for in.
    public let searchPath: String?

    public init(line: String, timeout: TimeInterval = SecretCommand.defaultTimeout,
                searchPath: String? = ProcessInfo.processInfo.environment["PATH"]) {
        self.line = line
        self.timeout = timeout
        self.searchPath = searchPath
    }

    public func password(forServer uid: String) throws(CredentialUnavailable) -> String {
        do {
            return try SecretCommand.run(CredentialSource.words(line), timeout: timeout, searchPath: searchPath)
        } catch {
            throw CredentialUnavailable("The credential command failed: \(error.message)")
        }
    }

    public func passphrase(forServer uid: String, keyFile: String) throws(CredentialUnavailable) -> String {
        try password(forServer: uid)
    }

    public func answers(forServer uid: String, prompts: [String]) throws(CredentialUnavailable) -> [String] {
        let secret = try password(forServer: uid)
        return prompts.map { _ in secret }
    }
}

/// The one check of a credential source typed by the person (`essh servers add/edit --credential`, the form): its
/// spelling (`CredentialSource.parse`), and for a command that its program is an absolute path to an executable or
/// is found on PATH.
public enum CredentialSourceCheck {
    /// The source `text` names, or a sentence saying what is wrong.
    public static func parse(_ text: String,
                             searchPath: String? = ProcessInfo.processInfo.environment["PATH"])
        -> Result<CredentialSource, CredentialSource.Problem>
    {
        let parsed = CredentialSource.parse(text)
        guard case .success(.command(let line)) = parsed else { return parsed }
        if let problem = programProblem(line, searchPath: searchPath) { return .failure(problem) }
        return parsed
    }

    /// Why the program of the command line `line` cannot be run, or nil.
    public static func programProblem(_ line: String, searchPath: String?) -> CredentialSource.Problem? {
        guard let program = CredentialSource.words(line).first else {
            return CredentialSource.Problem("The credential command is empty.")
        }
        guard SecretCommand.locate(program, searchPath: searchPath) == nil else { return nil }
        return CredentialSource.Problem(SecretCommand.notFoundMessage(program))
    }

    /// The provider for `source` (nil for `ask`): the command's, or `vault` for the vault.
    public static func provider(_ source: CredentialSource, vault: any SecretProvider) -> (any SecretProvider)? {
        switch source {
        case .ask: return nil
        case .vault: return vault
        case .command(let line): return CommandSecretProvider(line: line)
        }
    }
}
