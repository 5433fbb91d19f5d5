import Basics
import AppCore
import Foundation
import Mail

/// Mail and saved output, on their own serial queue: a slow sendmail never holds up the database or the session.
final class MailWorker: Sendable {
    /// The transport for a sendmail path (`Sendmail` for real; tests give a fake).
    typealias Transport = @Sendable (String) -> any MailTransport

    /// The real transport: `sendmail -t -i` at `path`.
    static let sendmail: Transport = { path in Sendmail(path: path) }

    private let outbox: any MailOutbox
    private let transport: Transport
    private let post: @Sendable (Message) -> Void
    private let home: String
    private let queue = DispatchQueue(label: "essh.app.mail")

    init(outbox: any MailOutbox, transport: @escaping Transport, post: @escaping @Sendable (Message) -> Void,
         home: String = ProcessInfo.processInfo.environment["HOME"] ?? NSHomeDirectory()) {
        self.outbox = outbox
        self.transport = transport
        self.post = post
        self.home = home
    }

    /// Builds and sends `request`, keeping it in the outbox when sending fails.
    func send(_ request: OutputMail, sendmail: String) {
        queue.async { [self] in
            var mail = request
            if mail.from.isEmpty { mail.from = LocalIdentity.defaultFrom }
            do throws(MailError) {
                let composed = try mail.compose()
                post(.mailFinished(.success(delivery(sendmail).send(composed)), to: mail.to))
            } catch {
                post(.mailFinished(.failure(error), to: mail.to))
            }
        }
    }

    /// Sends the outbox's waiting mail again.
    func retry(sendmail: String) {
        queue.async { [self] in
            do {
                post(.mailRetried(try delivery(sendmail).retryPending(), error: nil))
            } catch {
                post(.mailRetried([], error: UserFacing.sentence(error)))
            }
        }
    }

    /// Writes `bytes` to a new private file at `path` (never over an existing one).
    func save(_ bytes: [UInt8], to path: String) {
        queue.async { [self] in
            do {
                _ = try OutputFile.save(bytes, to: path, home: home)
                post(.outputSaved(path: path, error: nil))
            } catch {
                post(.outputSaved(path: path, error: UserFacing.sentence(error)))
            }
        }
    }

    private func delivery(_ sendmail: String) -> MailDelivery {
        MailDelivery(transport: transport(sendmail), outbox: outbox)
    }
}
