import Basics
import Foundation
import Mail

/// The preferences eSSH keeps in the database (one key per value), read alike by the interface's Settings screen
/// and by the command line. Each setting is written once, in `Settings.fields`: its key, label, hint, how its text
/// is parsed and checked, and how it is shown.
public struct Settings: Sendable, Equatable {
    /// Show quick-command output as a parsed table (F5 flips it per session).
    public var parse = true
    /// Seconds between background checks while the Servers screen is open; 0 turns them off.
    public var checkInterval = 0
    /// Seconds a check waits for a server.
    public var checkTimeout = 3.0
    /// Lines of output kept per session.
    public var scrollback = 10_000
    /// Long lines of a session's output wrap (with a marker); off: they scroll sideways (← → on an empty line).
    public var wrapLines = true
    /// Seconds between keepalives on a session: a server that went away silently is given up after four of them (a
    /// server that closed the connection is noticed within a second anyway).
    public var keepalive = 5
    /// The saved server to connect to at start ("" for none).
    public var autoconnect = ""
    /// Where output is mailed by default ("" for nobody).
    public var mailRecipient = ""
    /// The sendmail program for mail.
    public var sendmailPath = "/usr/sbin/sendmail"
    /// The From address of mail ("" for user@hostname).
    public var mailFrom = ""
    /// Bytes of output a mail shows inline; larger output is attached.
    public var mailMaxInline = 1_048_576
    /// known_hosts file ("" for ~/.ssh/known_hosts); $ESSH_KNOWN_HOSTS wins over it.
    public var knownHosts = ""
    /// Servers a fleet command runs on at once.
    public var fleetParallel = 64
    /// Seconds each server of a fleet command may take, connecting included.
    public var fleetTimeout = 60.0
    /// Report the mouse wheel to eSSH (the wheel scrolls); off, the terminal keeps the mouse and selects text
    /// without Shift. `m` on the Servers screen flips it.
    public var mouse = false
    /// The Servers screen's order (`o` cycles it).
    public var serverOrder = ServerOrder.name
    /// The Servers screen groups servers under their tags (`T` flips it).
    public var groupByTag = false
    /// Minutes the vault's unlock agent (`essh vault unlock`) keeps the key without a use before it locks.
    public var vaultIdleLock = 15
    /// A program that prints the vault passphrase (`pass show essh`), run without a shell; "" asks on the terminal.
    public var vaultPassphraseCommand = ""

    /// The defaults.
    public init() {}

    /// Settings read from stored key-value pairs; values that do not parse keep their defaults.
    public init(stored: [String: String]) {
        for field in Self.fields {
            if let text = stored[field.key] { _ = field.apply(&self, text) }
        }
    }

    /// The text shown for `key` ("" for an unknown key).
    public func text(for key: String) -> String {
        Self.field(key)?.format(self) ?? ""
    }

    /// Sets `key` from `text`; returns why the text is wrong, or nil when it was taken.
    public mutating func apply(_ text: String, to key: String) -> String? {
        guard let field = Self.field(key) else { return "Unknown setting." }
        return field.apply(&self, text)
    }

    /// Every setting as stored text.
    public var stored: [String: String] {
        Dictionary(uniqueKeysWithValues: Self.fields.map { ($0.key, $0.format(self)) })
    }

    /// The field stored under `key`.
    public static func field(_ key: String) -> SettingField? {
        fields.first { $0.key == key }
    }

    /// Every setting, in the order the Settings screen shows them.
    public static let fields: [SettingField] = [
        .flag("ui.parse", "Parse quick commands", \.parse),
        .whole("check.interval", "Check every (s)", hint: "seconds, 0 = only at start and on c", \.checkInterval,
               0...86_400, "Give whole seconds from 0 to 86400."),
        .seconds("check.timeout", "Check timeout (s)", hint: "seconds, 0.1 to 60", \.checkTimeout, 0.1...60,
                 "Give seconds from 0.1 to 60."),
        .whole("session.scrollback", "Scrollback lines", hint: "100 to 1000000", \.scrollback, 100...1_000_000,
               "Give a number of lines from 100 to 1000000."),
        .flag("session.wrap", "Wrap long lines", \.wrapLines),
        .whole("session.keepalive", "Keepalive every (s)", hint: "seconds, 2 to 300; 4 unanswered end the session",
               \.keepalive, 2...300, "Give whole seconds from 2 to 300."),
        .text("ui.autoconnect", "Autoconnect to", hint: "a saved server's name, or empty", \.autoconnect),
        .text("mail.recipient", "Mail recipient", hint: "an address, or empty", \.mailRecipient) {
            $0.isEmpty ? nil : MailSettings.problem(recipients: $0)
        },
        .text("mail.sendmail", "Sendmail path", hint: "absolute path", \.sendmailPath) {
            $0.hasPrefix("/") ? nil : "Give an absolute path, e.g. /usr/sbin/sendmail."
        },
        .text("mail.from", "Mail from", hint: "an address, or empty for user@hostname", \.mailFrom) {
            $0.isEmpty ? nil : MailSettings.problem(from: $0)
        },
        .whole("mail.max_inline", "Mail inline limit", hint: "bytes in the body; larger output is attached",
               \.mailMaxInline, 1_000...1_073_741_824, "Give a number of bytes from 1000 to 1073741824."),
        .text("ssh.known_hosts", "known_hosts file", hint: "empty for ~/.ssh/known_hosts", \.knownHosts) {
            $0.isEmpty || $0.hasPrefix("/") || $0.hasPrefix("~") ? nil
                : "Give an absolute path (or ~/…), or leave it empty."
        },
        .whole("fleet.parallel", "Run on at once", hint: "servers at once for x, 1 to 1024", \.fleetParallel,
               1...1024, "Give a number of servers from 1 to 1024."),
        .seconds("fleet.timeout", "Run timeout (s)", hint: "seconds per server for x, 1 to 86400", \.fleetTimeout,
                 1...86_400, "Give seconds from 1 to 86400."),
        .flag("ui.mouse", "Mouse wheel", \.mouse, hint: "on: the wheel scrolls; off: the mouse selects text (m)"),
        .choice("ui.sort", "Sort servers by", \.serverOrder),
        .flag("ui.group", "Group by tag", \.groupByTag, hint: "on or off (T on the servers list)"),
        .whole("vault.idle_lock", "Vault idle (min)", hint: "minutes unused, 1 to 1440", \.vaultIdleLock,
               1...1440, "Give whole minutes from 1 to 1440."),
        .text("vault.passphrase_command", "Vault passphrase cmd",
              hint: "a program printing the passphrase (no shell), or empty to ask", \.vaultPassphraseCommand),
    ]

    /// A number as the Settings screen shows it: whole numbers without a decimal point.
    public static func number(_ value: Double) -> String {
        DurationText.text(value, .number)
    }
}

/// One editable setting: its storage key, label and hint, how its text is checked and stored, and how it is shown.
public struct SettingField: Sendable {
    /// The key in the settings table (`fleet.timeout`).
    public let key: String
    /// The label on the Settings screen.
    public let label: String
    /// What the value may be, shown beside the field.
    public let hint: String
    /// The value as text.
    public let format: @Sendable (Settings) -> String
    /// Takes the (untrimmed) text: sets the value and returns nil, or returns why the text is wrong.
    public let apply: @Sendable (inout Settings, String) -> String?

    /// One word of `Choice`'s cases (`name`, `status`, `connected`), any case.
    static func choice<Choice>(_ key: String, _ label: String, _ path: WritableKeyPath<Settings, Choice> & Sendable)
        -> SettingField where Choice: RawRepresentable & CaseIterable & Sendable, Choice.RawValue == String
    {
        let words = Choice.allCases.map(\.rawValue)
        let listed = words.dropLast().joined(separator: ", ") + " or " + (words.last ?? "")
        return SettingField(key: key, label: label, hint: listed, format: { $0[keyPath: path].rawValue }) {
            settings, raw in
            guard let value = Choice(rawValue: raw.trimmingCharacters(in: .whitespaces).lowercased()) else {
                return "Type \(listed)."
            }
            settings[keyPath: path] = value
            return nil
        }
    }

    /// On or off (also yes/no, true/false, 1/0).
    static func flag(_ key: String, _ label: String, _ path: WritableKeyPath<Settings, Bool> & Sendable,
                     hint: String = "on or off") -> SettingField
    {
        SettingField(key: key, label: label, hint: hint, format: { $0[keyPath: path] ? "on" : "off" }) {
            settings, raw in
            switch raw.trimmingCharacters(in: .whitespaces).lowercased() {
            case "on", "yes", "true", "1": settings[keyPath: path] = true
            case "off", "no", "false", "0": settings[keyPath: path] = false
            default: return "Type on or off."
            }
            return nil
        }
    }

    /// A whole number within `range`.
    static func whole(_ key: String, _ label: String, hint: String,
                      _ path: WritableKeyPath<Settings, Int> & Sendable, _ range: ClosedRange<Int>,
                      _ problem: String) -> SettingField
    {
        SettingField(key: key, label: label, hint: hint, format: { String($0[keyPath: path]) }) { settings, raw in
            guard let n = Int(raw.trimmingCharacters(in: .whitespaces)), range.contains(n) else { return problem }
            settings[keyPath: path] = n
            return nil
        }
    }

    /// Seconds (a decimal number) within `range`.
    static func seconds(_ key: String, _ label: String, hint: String,
                        _ path: WritableKeyPath<Settings, Double> & Sendable, _ range: ClosedRange<Double>,
                        _ problem: String) -> SettingField
    {
        SettingField(key: key, label: label, hint: hint, format: { Settings.number($0[keyPath: path]) }) {
            settings, raw in
            guard let n = Double(raw.trimmingCharacters(in: .whitespaces)), range.contains(n) else { return problem }
            settings[keyPath: path] = n
            return nil
        }
    }

    /// Free text (trimmed), checked by `check` (nil: any text).
    static func text(_ key: String, _ label: String, hint: String,
                     _ path: WritableKeyPath<Settings, String> & Sendable,
                     check: @escaping @Sendable (String) -> String? = { _ in nil }) -> SettingField
    {
        SettingField(key: key, label: label, hint: hint, format: { $0[keyPath: path] }) { settings, raw in
            let text = raw.trimmingCharacters(in: .whitespaces)
            if let problem = check(text) { return problem }
            settings[keyPath: path] = text
            return nil
        }
    }
}

/// The orders of the Servers screen's list.
public enum ServerOrder: String, CaseIterable, Sendable {
    /// By name, ignoring case (the order the store gives).
    case name
    /// Online first (fastest first), then the other statuses, then the servers never checked.
    case status
    /// The most recently connected first; never connected last.
    case connected

    /// The next order (`o` cycles through them).
    public var next: ServerOrder {
        let all = Self.allCases
        return all[(all.firstIndex(of: self)! + 1) % all.count]
    }
}
