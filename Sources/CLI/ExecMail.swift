import Basics
import Operations
import ArgumentParser
import Foundation
import Mail
import SSH

/// `essh exec --mail`: keeps a copy of the output while it is printed, then mails it with the status block.
final class ExecMail {
    /// Output kept for the mail at most; beyond it the mail says the output was cut (it was still printed in full).
    static let keepLimit = 64 << 20

    let recipients: [String]
    let subject: String?
    let options: MailOptions
    let settings: MailSettings
    private var kept = CappedBytes(limit: ExecMail.keepLimit)
    let startedAt = Date()

    /// Checks the settings up front, so a wrong setting fails before the command runs.
    init(to: String, subject: String?, database: DatabaseOptions) throws {
        options = MailOptions(database: database, sendmail: nil)
        settings = try options.settings()
        recipients = try MailAddress.parseList(to)
        self.subject = subject
        do {
            try MailAddress.validate(settings.sender, field: "From")
        } catch {
            throw CommandFailure(.badInput, "the mail.from setting is wrong: \(error.message) Nothing was run.")
        }
    }

    /// Why a command that ended with `error` has no exit status, for the status block.
    static func unfinished(_ error: SSHError, timeout: Double?) -> String {
        switch error.kind {
        case .commandTimedOut: return "stopped by --timeout after \(timeout.map { String(format: "%g", $0) } ?? "?") s"
        case .cancelled: return "interrupted"
        default: return error.message
        }
    }

    /// Keeps a chunk of stdout or stderr (interleaved as they came, as a terminal shows them).
    func keep(_ bytes: UnsafeRawBufferPointer) {
        kept.append(bytes)
    }

    /// Mails what was kept; throws the exit status when the mail was not sent (see `MailOptions.send`).
    /// `unfinished` says why there is no status (a timeout, an interruption, a lost connection).
    func send(server: String, user: String, command: String, status: Int32?, signal: String?,
              unfinished: String? = nil) throws {
        let report = CommandReport(server: server, user: user, command: command, exitStatus: status, signal: signal,
                                   unfinished: unfinished, startedAt: startedAt,
                                   duration: Date().timeIntervalSince(startedAt))
        var text = kept.bytes
        if kept.cut > 0 {
            text += Array("\n[essh: \(kept.cut) more bytes of output were printed but not mailed]\n".utf8)
        }
        let mail = OutputMail(from: settings.sender, to: recipients, subject: subject ?? report.defaultSubject,
                              report: report, output: text, maxInline: settings.maxInline)
        try options.send(mail, settings: settings)
    }
}
