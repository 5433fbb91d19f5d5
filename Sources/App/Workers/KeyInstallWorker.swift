import AppCore
import Basics
import Foundation
import Inventory
import Operations
import SSH
import Synchronization

/// `I` on the Servers screen: what `essh key install NAME` does, off the UI loop and through the same Operations
/// code — the first of ~/.ssh/id_ed25519.pub, id_ecdsa.pub, id_rsa.pub (its private key beside it or an agent
/// running), a login the server's usual way (`SessionWorker.connectOptions`, questions through the session worker's
/// `PromptBroker`), `KeyInstall.append`, `KeyInstall.verify` with the key alone, then `IdentityMemory.record`. Each
/// step is posted as it is done (`KeyInstallEvent`); a failure is one sentence, and nothing on this machine is changed
/// by it. The switch to key login is the interface's question, answered through the store's edit.
final class KeyInstallWorker: Sendable {
    private let post: @Sendable (Message) -> Void
    private let environment: [String: String]
    private let localUser: String
    private let savedServer: (@Sendable (String) throws -> Server?)?
    /// The team's pinned host keys of a host and port (`TeamPins.lookup`), for every hop; nil: none.
    private let hostKeyPins: TeamPins.Lookup?
    /// Asks the person what a login needs (host key, password): the session worker's broker.
    private let prompter: any Prompter
    /// Lets `prompter` ask again (a connection given up before left it silent: `PromptBroker.reset`).
    private let resetPrompts: @Sendable () -> Void
    /// Drops the questions waiting (Esc on the install: `PromptBroker.cancelAll`).
    private let cancelPrompts: @Sendable () -> Void
    /// Where the identity that logged in is remembered (nil: nowhere).
    private let inventory: Inventory?
    /// The vault's secrets for the password login, as a session from the list gets them (nil: no vault wired in).
    private let secrets: InterfaceSecrets?
    private let queue = DispatchQueue(label: "essh.app.keyinstall")
    /// The running install's cancellation (Esc).
    private let running = Mutex<Cancellation?>(nil)

    init(post: @escaping @Sendable (Message) -> Void, environment: [String: String], localUser: String,
         savedServer: (@Sendable (String) throws -> Server?)? = nil, hostKeyPins: TeamPins.Lookup? = nil,
         prompter: any Prompter,
         resetPrompts: @escaping @Sendable () -> Void = {}, cancelPrompts: @escaping @Sendable () -> Void = {},
         inventory: Inventory?, secrets: InterfaceSecrets? = nil) {
        self.secrets = secrets
        self.post = post
        self.environment = environment
        self.localUser = localUser
        self.savedServer = savedServer
        self.hostKeyPins = hostKeyPins
        self.prompter = prompter
        self.resetPrompts = resetPrompts
        self.cancelPrompts = cancelPrompts
        self.inventory = inventory
    }

    /// Why an install stopped, as the box says it.
    private struct Stop: Error {
        let sentence: String
    }

    func install(_ profile: ConnectionProfile, knownHosts: String) {
        let cancel: Cancellation
        do throws(SSHError) { cancel = try Cancellation() } catch {
            return post(.keyInstall(.failed(InterfaceWords.sentence(error))))
        }
        running.withLock { $0 = cancel }
        resetPrompts()
        queue.async { [self] in
            let event: KeyInstallEvent
            do {
                event = .installed(offer: try run(profile, knownHosts: knownHosts, cancel: cancel))
            } catch let stop as Stop {
                event = .failed(cancel.isCancelled ? "Cancelled." : stop.sentence)
            } catch {
                event = .failed(cancel.isCancelled ? "Cancelled." : Self.words(error))
            }
            running.withLock { if $0 === cancel { $0 = nil } }
            post(.keyInstall(event))
        }
    }

    /// Stops the running install (its login or the server's command).
    func cancel() {
        guard let cancel = running.withLock({ $0 }) else { return }
        cancel.cancel()
        cancelPrompts()
    }

    /// Waits until the queue is idle (quitting), at most `seconds`.
    func waitUntilIdle(seconds: Double) {
        let done = DispatchSemaphore(value: 0)
        queue.async { done.signal() }
        _ = done.wait(timeout: .now() + seconds)
    }

    /// The install's steps; returns what a saved password server could switch to (nil: nothing to offer).
    private func run(_ profile: ConnectionProfile, knownHosts: String, cancel: Cancellation) throws -> KeySwitch? {
        let name = profile.name ?? profile.host
        let home = LocalUser.home(environment)
        guard let publicPath = PublicKey.defaultPath(home: home) else {
            throw Stop(sentence: "No public key to install: none of ~/.ssh/id_ed25519.pub, id_ecdsa.pub, id_rsa.pub "
                       + "exists. Make one with essh key generate.")
        }
        let key: PublicKey
        do throws(KeyProblem) { key = try PublicKey.read(path: publicPath) } catch {
            throw Stop(sentence: error.message)
        }
        let privateKey = PublicKey.privateKey(besides: publicPath)
        if privateKey == nil && (environment["SSH_AUTH_SOCK"] ?? "").isEmpty {
            throw Stop(sentence: "The private key beside \(publicPath) is missing and no ssh-agent runs: a login "
                       + "with the key could not be checked. Install a key whose private half is here.")
        }
        post(.keyInstall(.progress("The key: \(key.fingerprint) (\(publicPath))")))
        let (options, problem) = SessionWorker.connectOptions(profile, knownHosts: knownHosts,
                                                              environment: environment, localUser: localUser,
                                                              savedServer: savedServer, hostKeyPins: hostKeyPins)
        if let problem { throw Stop(sentence: problem) }
        let session: SSHSession
        do throws(SSHError) {
            // The password login through the server's credential source (vault, command), as a session's login.
            session = try SessionWorker.connectOwnSession(profile, options: options, prompter: prompter,
                                                          secrets: secrets, post: post, cancel: cancel)
        } catch {
            throw Stop(sentence: "Could not log in to \(name): " + InterfaceWords.sentence(error))
        }
        let steps: [KeyInstall.Step]
        do {
            defer { session.disconnect() }
            post(.keyInstall(.progress("Logged in to \(name) with the \(session.loginIdentity).")))
            do {
                steps = try KeyInstall.append(key, session: session, cancel: cancel)
            } catch {
                throw Stop(sentence: Self.words(error))
            }
        }
        for step in steps { post(.keyInstall(.progress(Self.sentence(step)))) }
        let identity: LoginIdentity
        do {
            identity = try KeyInstall.verify(options, key: key, privateKey: privateKey, prompter: prompter,
                                             cancel: cancel)
        } catch {
            throw Stop(sentence: Self.words(error))
        }
        post(.keyInstall(.progress(Self.sentence(.verified(identity)))))
        // As the command line: the key that logged in is offered first next time; a database that cannot be written
        // does not undo the install.
        _ = try? IdentityMemory.record(identity, for: profile, in: inventory)
        guard profile.isSaved, profile.auth == .password else { return nil }
        return privateKey.map(KeySwitch.keyFile) ?? .agent
    }

    /// An error of the install as a sentence: the SSH module's in the interface's words, the others' own message.
    static func words(_ error: any Error) -> String {
        if let error = error as? SSHError { return InterfaceWords.sentence(error) }
        if let error = error as? any UserFacingError { return error.message }
        return "\(error)"
    }

    /// A step as a sentence: `KeyInstall.Step`'s own words, capitalised.
    static func sentence(_ step: KeyInstall.Step) -> String {
        let text = step.description
        return text.prefix(1).uppercased() + text.dropFirst() + "."
    }
}
