import Operations
import Inventory
import SSH
import TUIKit

/// What a form is for; decides its fields and what Enter saves.
enum FormPurpose: Sendable, Equatable {
    case addServer
    /// Editing the saved server with this name.
    case editServer(String)
    case quickConnect
    case settings
}

/// A form: fields, which one has focus, and a message for the whole form (a save that failed).
struct FormState: Sendable, Equatable {
    var purpose: FormPurpose
    var fields: [FormField]
    var focus = 0
    var error: String?

    var title: String {
        switch purpose {
        case .addServer: return "Add server"
        case .editServer(let name): return "Edit server \(name)"
        case .quickConnect: return "Quick connect"
        case .settings: return "Settings"
        }
    }

    func text(_ key: String) -> String {
        fields.first { $0.key == key }?.input.text ?? ""
    }

    mutating func setError(_ key: String, _ message: String?) {
        if let i = fields.firstIndex(where: { $0.key == key }) { fields[i].error = message }
    }

    /// The server form, filled from `server` when editing.
    static func server(_ server: Server?) -> FormState {
        let fields = [
            FormField(key: "name", label: "Name", text: server?.name ?? "", hint: "unique, e.g. web1"),
            FormField(key: "host", label: "Host", text: server?.host ?? "", hint: "name or address"),
            FormField(key: "port", label: "Port", text: String(server?.port ?? 22), hint: "1 to 65535"),
            FormField(key: "user", label: "User", text: server?.user ?? "", hint: "empty: your local user"),
            FormField(key: "auth", label: "Auth", text: server?.auth.rawValue ?? "agent",
                      hint: "key, agent or password"),
            FormField(key: "key", label: "Key file", text: server?.keyPath ?? "",
                      hint: "for auth key, e.g. ~/.ssh/id_ed25519"),
            FormField(key: "credential", label: "Password", text: server?.credential.text ?? "ask",
                      hint: "ask, vault or command:pass show db1"),
            FormField(key: "jump", label: "Jump", text: server?.jump ?? "",
                      hint: "reached through: bastion or user@host:port, a,b for two; empty: direct"),
            FormField(key: "os", label: "OS", text: server?.os.rawValue ?? "auto",
                      hint: "auto, linux, macos, bsd or windows"),
            FormField(key: "tags", label: "Tags", text: server?.tags.joined(separator: " ") ?? "",
                      hint: "words separated by spaces"),
            FormField(key: "note", label: "Note", text: server?.note ?? ""),
        ] + algorithmFields(server?.algorithms ?? AlgorithmChoices())
        return FormState(purpose: server.map { .editServer($0.name) } ?? .addServer, fields: fields)
    }

    /// The algorithm lists of an old device, one field each, keyed by Inventory's field names (OpenSSH's syntax;
    /// empty means eSSH's defaults).
    static let algorithmFields: [(kind: AlgorithmKind, field: ServerField, label: String, hint: String)] = [
        (.kex, .kexAlgorithms, "KEX", "old device: e.g. +diffie-hellman-group14-sha1"),
        (.hostKey, .hostKeyAlgorithms, "Host key", "host key algorithms; old device: e.g. +ssh-rsa"),
        (.cipher, .ciphers, "Ciphers", "empty: eSSH's; +NAME adds, -NAME removes"),
        (.mac, .macs, "MACs", "old device: e.g. +hmac-sha1"),
    ]

    private static func algorithmFields(_ choices: AlgorithmChoices) -> [FormField] {
        algorithmFields.map {
            FormField(key: $0.field.rawValue, label: $0.label, text: choices[$0.kind] ?? "", hint: $0.hint)
        }
    }

    /// The add form filled from a quick-connected host (the name is the host; change it at will).
    static func server(draft: ServerDraft) -> FormState {
        var form = server(nil)
        let texts = ["name": draft.name, "host": draft.host, "port": String(draft.port), "user": draft.user ?? "",
                     "auth": draft.auth?.rawValue ?? "agent", "key": draft.keyPath ?? "", "os": draft.os.rawValue,
                     "jump": draft.jump, "credential": draft.credential.text]
        for i in form.fields.indices {
            if let text = texts[form.fields[i].key] { form.fields[i].input.setText(text) }
        }
        return form
    }

    static let quickConnect = FormState(purpose: .quickConnect, fields: [
        FormField(key: "dest", label: "Server", hint: "[user@]host[:port]"),
    ])

    static func settings(_ settings: Settings) -> FormState {
        FormState(purpose: .settings, fields: Settings.fields.map {
            FormField(key: $0.key, label: $0.label, text: settings.text(for: $0.key), hint: $0.hint)
        })
    }
}
