import AppCore
import Foundation

/// The vault's work for the interface (`Work.vault`) on a queue of its own: locking, and remembering a typed
/// password, which may wait for the person (the vault passphrase) and for scrypt, so never on the UI thread nor on
/// the session's queue.
final class VaultWorker: Sendable {
    let secrets: InterfaceSecrets
    private let queue = DispatchQueue(label: "essh.app.vault")

    /// Says at once (on its queue) whether there is a vault and whether it is open.
    init(secrets: InterfaceSecrets, post: @escaping @Sendable (Message) -> Void) {
        self.secrets = secrets
        queue.async { post(.vault(secrets.status())) }
    }

    func run(_ work: VaultWork) {
        switch work {
        case .lock: queue.async { [secrets] in secrets.lock() }
        case .rememberTyped(let server): queue.async { [secrets] in secrets.rememberTyped(server: server) }
        case .forgetTyped: secrets.forgetTyped()
        }
    }

    /// Quitting: the key is dropped before the process ends (not behind the queue, which may be waiting for an
    /// answer nobody will give now).
    func finish() {
        secrets.forgetTyped()
        secrets.lock()
    }
}
