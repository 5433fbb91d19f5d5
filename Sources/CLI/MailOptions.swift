import Operations
import ArgumentParser
import Foundation
import Inventory
import Mail

/// What `essh mail` and `essh exec --mail` share: reading the mail settings, choosing the transport, and sending
/// with the outbox behind it, with one set of messages and exit statuses.
struct MailOptions {
    /// Not sent, kept in the outbox (sysexits' EX_TEMPFAIL, which sendmail itself uses for "try again later").
    static let queuedStatus: Int32 = 75
    /// Not sent, and the outbox could not keep it either.
    static let lostStatus: Int32 = 1

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
        let inventory = try database.open()
        return try CommandFailure.guarding { () throws(InventoryError) in try MailSettings(inventory: inventory) }
    }

    func transport(_ settings: MailSettings) -> Sendmail {
        Sendmail(path: sendmail ?? settings.sendmailPath)
    }

    /// `--to`, else the mail.recipient setting; exits 64 when neither names anyone, 2 when the setting is wrong.
    func recipients(_ option: String?, settings: MailSettings) throws -> [String] {
        if let option { return try MailAddress.parseList(option) }
        if settings.recipient.isEmpty {
            printError(
                "give the recipients with --to, or set mail.recipient in the settings (s on essh's server list).")
            throw ExitCode(64)
        }
        do {
            return try MailAddress.parseList(settings.recipient)
        } catch {
            printError("the mail.recipient setting is wrong: \(error.message)")
            throw ExitCode(2)
        }
    }

    /// Builds and sends `mail`; prints what happened on stderr and throws the exit status when it was not sent.
    func send(_ mail: OutputMail, settings: MailSettings) throws {
        let composed: ComposedMail
        do {
            composed = try mail.compose()
        } catch {
            printError(error.message + " Nothing was sent.")
            throw ExitCode(2)
        }
        let path = database.path
        let delivery = MailDelivery(transport: transport(settings), outbox: InventoryOutbox {
            try Inventory(path: path)
        })
        switch delivery.send(composed) {
        case .sent:
            return
        case .queued(let id, let error):
            printError("""
                the mail was not sent: \(error.message) It is kept in the outbox as #\(id); \
                send it with `essh mail --retry\(database.db.map { " --db \($0)" } ?? "")`.
                """)
            throw ExitCode(Self.queuedStatus)
        case .saved(let error, let outboxError, let savedTo):
            let kept = savedTo.map { "it was appended to \($0)." } ?? "it could not be saved anywhere."
            printError("""
                the mail was not sent: \(error.message) The outbox could not keep it (\(outboxError)); \(kept)
                """)
            throw ExitCode(Self.lostStatus)
        }
    }
}
