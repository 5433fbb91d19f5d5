import Operations
import Foundation
import Mail

extension EffectRunner {
    /// Mail is sent on its own serial queue: a slow sendmail never holds up the database or the SSH session.
    private static let mailQueue = DispatchQueue(label: "essh.app.mail")

    /// Runs `.sendMail`, `.retryMail` and `.saveOutput` off the UI thread and posts their results.
    func runOutput(_ effect: Effect) {
        switch effect {
        case .sendMail(let request, let sendmail):
            Self.mailQueue.async { [self] in
                var mail = request
                if mail.from.isEmpty { mail.from = LocalIdentity.defaultFrom }
                do throws(MailError) {
                    let composed = try mail.compose()
                    post(.mailFinished(.success(delivery(sendmail).send(composed)), to: mail.to))
                } catch {
                    post(.mailFinished(.failure(error), to: mail.to))
                }
            }
        case .retryMail(let sendmail):
            Self.mailQueue.async { [self] in
                do {
                    post(.mailRetried(try delivery(sendmail).retryPending(), error: nil))
                } catch {
                    post(.mailRetried([], error: "\(error)"))
                }
            }
        case .saveOutput(let path, let bytes):
            Self.mailQueue.async { [self] in
                do {
                    _ = try OutputFile.save(bytes, to: path)
                    post(.outputSaved(path: path, error: nil))
                } catch {
                    post(.outputSaved(path: path, error: "\(error)"))
                }
            }
        default:
            break
        }
    }

    private func delivery(_ sendmail: String) -> MailDelivery {
        let inventory = self.inventory
        return MailDelivery(transport: Sendmail(path: sendmail), outbox: InventoryOutbox { inventory })
    }
}
