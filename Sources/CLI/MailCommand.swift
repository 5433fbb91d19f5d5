import Operations
import ArgumentParser
import Foundation
import Inventory
import Mail

/// `essh mail`: mails stdin or a file through the system's sendmail (like `mail`), retries the outbox, or lists it.
struct MailCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mail",
        abstract: "Mail stdin or a file through sendmail; retry or list the outbox.",
        discussion: """
            essh mail --to ops@example.org < report.txt     (or: essh exec web1 -- df -h | essh mail --to ops@example.org)
            Text is sent as UTF-8 (invalid bytes shown as U+FFFD); input larger than the mail.max_inline setting \
            (default 1 MiB) is attached. Recipients default to the mail.recipient setting, the sender to \
            mail.from (else user@hostname), the program to mail.sendmail (default /usr/sbin/sendmail, run as \
            `sendmail -t -i`). A message sendmail does not take is kept in the outbox of the database: \
            `essh mail --retry` sends every waiting message again, `essh mail --list` shows them, `essh mail --drop ID` removes one.
            Exit status: 0 sent (every message, for --retry); 75 not sent but kept in the outbox (the message says \
            its number); 1 not sent and the outbox failed too (the message was appended to ~/dead.letter); \
            2 a setting or FILE is wrong; 3 the database cannot be used; 64 wrong options (bad address, a line \
            break in --subject).
            """
    )

    @Option(name: .long, help: ArgumentHelp("Recipients, separated by commas (default: the mail.recipient setting).",
                                            valueName: "address,..."))
    var to: String?

    @Option(name: .long, help: "Subject (default: “essh: FILE” or “essh: output from HOST”).")
    var subject: String?

    @Option(name: .long, help: ArgumentHelp("Sender address (default: the mail.from setting, else user@hostname).",
                                            valueName: "address"))
    var from: String?

    @Option(name: .long, help: ArgumentHelp("The sendmail program (default: the mail.sendmail setting).",
                                            valueName: "path"))
    var sendmail: String?

    @Flag(name: .long, help: "Send every message waiting in the outbox again.")
    var retry = false

    @Flag(name: .long, help: "List the messages waiting in the outbox.")
    var list = false

    @Option(name: .long, help: ArgumentHelp("Remove a waiting message from the outbox (one that can never be sent).",
                                            valueName: "id"))
    var drop: Int64?

    @OptionGroup var database: DatabaseOptions

    @Argument(help: "The file to mail (default: stdin).")
    var file: String?

    func validate() throws {
        if [retry, list, drop != nil].filter({ $0 }).count > 1 {
            throw ValidationError("Give one of --retry, --list and --drop.")
        }
        if (retry || list || drop != nil) && (to != nil || subject != nil || from != nil || file != nil) {
            throw ValidationError("--retry, --list and --drop take no recipients, subject, sender or FILE.")
        }
        if let to { try MailOptions.check { () throws(MailError) in _ = try MailAddress.parseList(to) } }
        if let subject { try MailOptions.check { () throws(MailError) in try HeaderSafety.check(subject, field: "Subject") } }
        if let from { try MailOptions.check { () throws(MailError) in try MailAddress.validate(from, field: "From") } }
        if let sendmail, !sendmail.hasPrefix("/") {
            throw ValidationError("--sendmail \(sendmail): give the program's absolute path, e.g. /usr/sbin/sendmail.")
        }
    }

    func run() throws {
        let options = MailOptions(database: database, sendmail: sendmail)
        if list { return try listOutbox(options) }
        if retry { return try retryOutbox(options) }
        if let drop { return try dropFromOutbox(drop) }
        let settings = try options.settings()
        let recipients = try options.recipients(to, settings: settings)
        let input: [UInt8]
        do { input = try InputFile.read(file) } catch {
            throw CommandFailure(.badInput, error.message + " Nothing was sent.")
        }
        let mail = OutputMail(from: from ?? settings.sender, to: recipients,
                              subject: subject ?? defaultSubject, report: nil, output: input,
                              maxInline: settings.maxInline,
                              attachmentName: file.map { ($0 as NSString).lastPathComponent } ?? "essh-output.txt")
        try options.send(mail, settings: settings)
    }

    private var defaultSubject: String {
        if let file { return "essh: " + (file as NSString).lastPathComponent }
        return "essh: output from \(LocalIdentity.hostname)"
    }

    private func listOutbox(_ options: MailOptions) throws {
        guard FileManager.default.fileExists(atPath: database.path) else {
            TerminalOutput.line("The outbox is empty.")
            return
        }
        let inventory = try database.open()
        let pending = try inventory.pendingMail()
        if pending.isEmpty {
            TerminalOutput.line("The outbox is empty.")
            return
        }
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        var table = TextTable(headers: ["ID", "QUEUED", "TRIES", "TO", "SUBJECT", "LAST ERROR"])
        for mail in pending {
            table.add([mail.id.map(String.init) ?? "", formatter.string(from: mail.createdAt), String(mail.attempts),
                       mail.recipients, mail.subject, mail.lastError ?? ""]
                .map { TextTable.Cell(text: $0.replacingOccurrences(of: "\n", with: " "), colour: nil) })
        }
        TerminalOutput.write(table.render(colour: false))
        TerminalOutput.line("\(pending.count) waiting; `essh mail --retry` sends them.")
    }

    private func dropFromOutbox(_ id: Int64) throws {
        // Like --list and --retry: no database means an empty outbox, and none is created just to look.
        var dropped = false
        if FileManager.default.fileExists(atPath: database.path) {
            let inventory = try database.open()
            dropped = try inventory.dropMail(id: id)
        }
        guard dropped else {
            throw CommandFailure(.badInput, "the outbox has no message #\(id) (`essh mail --list` shows them).")
        }
        TerminalOutput.line("#\(id) removed from the outbox.")
    }

    private func retryOutbox(_ options: MailOptions) throws {
        guard FileManager.default.fileExists(atPath: database.path) else {
            TerminalOutput.line("The outbox is empty.")
            return
        }
        let settings = try options.settings()
        let inventory = try database.open()
        let delivery = MailDelivery(transport: options.transport(settings), outbox: InventoryOutbox { inventory })
        let results = try delivery.retryPending()
        if results.isEmpty {
            TerminalOutput.line("The outbox is empty.")
            return
        }
        var failed = 0
        for result in results {
            if let error = result.error {
                failed += 1
                TerminalOutput.line("#\(result.mail.id) to \(result.mail.recipients) not sent: \(error.message)")
            } else {
                TerminalOutput.line("#\(result.mail.id) sent to \(result.mail.recipients) (\(result.mail.subject))")
            }
        }
        if failed > 0 {
            throw CommandFailure(.tempFailure, "\(failed) of \(results.count) still waiting in the outbox; fix the cause "
                                 + "and run `essh mail --retry` again.")
        }
    }
}
