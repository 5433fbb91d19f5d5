import Operations
import ArgumentParser
import Foundation
import Inventory
import Mail

/// What `essh mail` and `essh exec --mail` share: reading the mail settings, choosing the transport, and sending
/// with the outbox behind it, with one set of messages. Not sent but kept in the outbox ends with `.tempFailure` (75,
/// sysexits' EX_TEMPFAIL, which sendmail itself uses for "try again later"); not kept either with `.failed` (1).
struct MailOptions {
    var database: DatabaseOptions
    /// `--sendmail`, beating the setting.
    var sendmail: String?

    /// A Mail error in an option turned into a usage error (exit 64) with its sentence.
    static func check(_ body: () throws(MailError) -> Void) throws {
        do { try body() } catch { throw ValidationError(error.message) }
    }

    /// The stored mail settings; defaults when there is no database yet (reading never creates one).
    func settings() throws -> MailSettings {
        guard FileManager.default.fileExists(atPath: database.path) else { return MailSettings(stored: [:]) }
        return try MailSettings(inventory: try database.open())
    }

    func transport(_ settings: MailSettings) -> Sendmail {
        Sendmail(path: sendmail ?? settings.sendmailPath)
    }

    /// `--to`, else the mail.recipient setting; a usage error when neither names anyone, bad input when the setting
    /// is wrong.
    func recipients(_ option: String?, settings: MailSettings) throws -> [String] {
        if let option { return try MailAddress.parseList(option) }
        if settings.recipient.isEmpty {
            throw ValidationError(
                "Give the recipients with --to, or set mail.recipient in the settings (s on essh's server list).")
        }
        do {
            return try MailAddress.parseList(settings.recipient)
        } catch {
            throw CommandFailure(.badInput, "the mail.recipient setting is wrong: \(error.message)")
        }
    }

    /// Builds and sends `mail`; prints what happened on stderr and throws the exit status when it was not sent.
    func send(_ mail: OutputMail, settings: MailSettings) throws {
        let composed: ComposedMail
        do {
            composed = try mail.compose()
        } catch {
            throw CommandFailure(.badInput, error.message + " Nothing was sent.")
        }
        let path = database.path
        let delivery = MailDelivery(transport: transport(settings), outbox: InventoryOutbox {
            try Inventory(path: path)
        })
        switch delivery.send(composed) {
        case .sent:
            return
        case .queued(let id, let error):
            throw CommandFailure(.tempFailure, """
                the mail was not sent: \(error.message) It is kept in the outbox as #\(id); \
                send it with `essh mail --retry\(database.db.map { " --db \($0)" } ?? "")`.
                """, detail: error.detail)
        case .saved(let error, let outboxError, let savedTo):
            let kept = savedTo.map { "it was appended to \($0)." } ?? "it could not be saved anywhere."
            throw CommandFailure(.failed, """
                the mail was not sent: \(error.message) The outbox could not keep it (\(outboxError)); \(kept)
                """, detail: error.detail)
        }
    }
}
