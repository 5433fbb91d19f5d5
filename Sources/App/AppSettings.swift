import Foundation
import Mail

/// The preferences the Settings screen edits, stored as inventory settings (one key per field).
package struct AppSettings: Sendable, Equatable {
    /// Show quick-command output as a parsed table (F5 flips it per session).
    var parse = true
    /// Seconds between background checks while the Servers screen is open; 0 turns them off.
    var checkInterval = 0
    /// Seconds a check waits for a server.
    var checkTimeout = 3.0
    /// Lines of output kept per session.
    var scrollback = 10_000
    /// The saved server to connect to at start ("" for none).
    var autoconnect = ""
    /// Where session summaries would be mailed ("" for nobody).
    package var mailRecipient = ""
    /// The sendmail program for mail.
    package var sendmailPath = "/usr/sbin/sendmail"
    /// The From address of mail ("" for user@hostname).
    package var mailFrom = ""
    /// Bytes of output a mail shows inline; larger output is attached.
    package var mailMaxInline = 1_048_576
    /// known_hosts file ("" for ~/.ssh/known_hosts); $ESSH_KNOWN_HOSTS wins over it.
    var knownHosts = ""
    /// Servers a fleet command runs on at once.
    var fleetParallel = 64
    /// Seconds each server of a fleet command may take, connecting included.
    var fleetTimeout = 60.0

    /// One editable setting: its storage key, label, and how it reads and writes its text.
    struct Field: Sendable {
        var key: String
        var label: String
        var hint: String
    }

    static let fields: [Field] = [
        Field(key: "ui.parse", label: "Parse quick commands", hint: "on or off"),
        Field(key: "check.interval", label: "Check every (s)", hint: "seconds, 0 = only at start and on c"),
        Field(key: "check.timeout", label: "Check timeout (s)", hint: "seconds, 0.1 to 60"),
        Field(key: "session.scrollback", label: "Scrollback lines", hint: "100 to 1000000"),
        Field(key: "ui.autoconnect", label: "Autoconnect to", hint: "a saved server's name, or empty"),
        Field(key: "mail.recipient", label: "Mail recipient", hint: "an address, or empty"),
        Field(key: "mail.sendmail", label: "Sendmail path", hint: "absolute path"),
        Field(key: "mail.from", label: "Mail from", hint: "an address, or empty for user@hostname"),
        Field(key: "mail.max_inline", label: "Mail inline limit", hint: "bytes in the body; larger output is attached"),
        Field(key: "ssh.known_hosts", label: "known_hosts file", hint: "empty for ~/.ssh/known_hosts"),
        Field(key: "fleet.parallel", label: "Run on at once", hint: "servers at once for x, 1 to 1024"),
        Field(key: "fleet.timeout", label: "Run timeout (s)", hint: "seconds per server for x, 1 to 86400"),
    ]

    package init() {}

    /// Settings read from stored key-value pairs; values that do not parse keep their defaults.
    package init(stored: [String: String]) {
        for field in Self.fields {
            if let text = stored[field.key] { _ = apply(text, to: field.key) }
        }
    }

    /// The text shown for `key`.
    func text(for key: String) -> String {
        switch key {
        case "ui.parse": return parse ? "on" : "off"
        case "check.interval": return String(checkInterval)
        case "check.timeout": return Self.number(checkTimeout)
        case "session.scrollback": return String(scrollback)
        case "ui.autoconnect": return autoconnect
        case "mail.recipient": return mailRecipient
        case "mail.sendmail": return sendmailPath
        case "mail.from": return mailFrom
        case "mail.max_inline": return String(mailMaxInline)
        case "ssh.known_hosts": return knownHosts
        case "fleet.parallel": return String(fleetParallel)
        case "fleet.timeout": return Self.number(fleetTimeout)
        default: return ""
        }
    }

    /// Sets `key` from `text`; returns why the text is wrong, or nil when it was taken.
    mutating func apply(_ raw: String, to key: String) -> String? {
        let text = raw.trimmingCharacters(in: .whitespaces)
        switch key {
        case "ui.parse":
            switch text.lowercased() {
            case "on", "yes", "true", "1": parse = true
            case "off", "no", "false", "0": parse = false
            default: return "Type on or off."
            }
        case "check.interval":
            guard let n = Int(text), (0...86_400).contains(n) else { return "Give whole seconds from 0 to 86400." }
            checkInterval = n
        case "check.timeout":
            guard let n = Double(text), n >= 0.1, n <= 60 else { return "Give seconds from 0.1 to 60." }
            checkTimeout = n
        case "session.scrollback":
            guard let n = Int(text), (100...1_000_000).contains(n) else {
                return "Give a number of lines from 100 to 1000000."
            }
            scrollback = n
        case "ui.autoconnect": autoconnect = text
        case "mail.recipient":
            if !text.isEmpty, let problem = Self.mailProblem(recipients: text) { return problem }
            mailRecipient = text
        case "mail.from":
            if !text.isEmpty, let problem = Self.mailProblem(from: text) { return problem }
            mailFrom = text
        case "mail.max_inline":
            guard let n = Int(text), (1_000...1_073_741_824).contains(n) else {
                return "Give a number of bytes from 1000 to 1073741824."
            }
            mailMaxInline = n
        case "mail.sendmail":
            guard text.hasPrefix("/") else { return "Give an absolute path, e.g. /usr/sbin/sendmail." }
            sendmailPath = text
        case "ssh.known_hosts":
            if !text.isEmpty && !text.hasPrefix("/") && !text.hasPrefix("~") {
                return "Give an absolute path (or ~/…), or leave it empty."
            }
            knownHosts = text
        case "fleet.parallel":
            guard let n = Int(text), (1...1024).contains(n) else { return "Give a number of servers from 1 to 1024." }
            fleetParallel = n
        case "fleet.timeout":
            guard let n = Double(text), n >= 1, n <= 86_400 else { return "Give seconds from 1 to 86400." }
            fleetTimeout = n
        default: return "Unknown setting."
        }
        return nil
    }

    /// Every setting as stored text.
    var stored: [String: String] {
        Dictionary(uniqueKeysWithValues: Self.fields.map { ($0.key, text(for: $0.key)) })
    }

    static func mailProblem(recipients text: String) -> String? {
        do { _ = try MailAddress.parseList(text) } catch { return error.message }
        return nil
    }

    static func mailProblem(from text: String) -> String? {
        do { try MailAddress.validate(text, field: "From") } catch { return error.message }
        return nil
    }

    static func number(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
