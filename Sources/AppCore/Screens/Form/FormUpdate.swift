import Basics
import Operations
import Foundation
import Inventory
import SSH
import TUIKit

/// Forms (add, edit, quick connect, settings): moving between fields, validating on save, turning a valid form into
/// an effect.
extension Update {
    static func formKey(_ state: inout AppState, _ action: FormAction?, _ key: Key) -> [Effect] {
        guard var form = state.form else { return [] }
        switch action {
        case .next: form.focus = (form.focus + 1) % form.fields.count
        case .previous: form.focus = (form.focus + form.fields.count - 1) % form.fields.count
        case .help: state.showHelp = true
        case .cancel:
            state.show(.servers)
            return []
        case .save:
            state.show(.form(form))
            return save(&state)
        case nil:
            _ = form.fields[form.focus].input.handle(key)
            form.fields[form.focus].error = nil
        }
        state.show(.form(form))
        return []
    }

    /// Validates the form; on success returns the effect that saves (or connects), else marks the fields.
    static func save(_ state: inout AppState) -> [Effect] {
        guard var form = state.form else { return [] }
        for i in form.fields.indices { form.fields[i].error = nil }
        form.error = nil
        switch form.purpose {
        case .addServer, .editServer:
            let draft = validateServer(&form, saved: state.servers)
            state.show(.form(form))
            guard let draft else { return [] }
            if case .editServer(let name) = form.purpose { return [.saveServer(draft, replacing: name)] }
            return [.saveServer(draft, replacing: nil)]
        case .quickConnect:
            let text = form.text("dest").trimmingCharacters(in: .whitespaces)
            guard !text.isEmpty else {
                form.setError("dest", "Type a host, e.g. admin@10.0.0.5 or web1.example.com:2222, or a Host of "
                              + "~/.ssh/config.")
                state.show(.form(form))
                return []
            }
            do {
                _ = try Destination(parsing: text)
            } catch {
                form.setError("dest", error.message)
                state.show(.form(form))
                return []
            }
            // A saved server, a Host in ~/.ssh/config or a host: the command line's rule, read by the store worker.
            state.show(.form(form))
            return [.work(.resolveDestination(text))]
        case .settings:
            var settings = state.settings
            for field in form.fields {
                if let problem = settings.apply(field.input.text, to: field.key) {
                    form.setError(field.key, problem)
                }
            }
            if let bad = form.fields.firstIndex(where: { $0.error != nil }) {
                form.focus = bad
                state.show(.form(form))
                return []
            }
            state.settings = settings
            state.show(.servers)
            return [.saveSettings(settings.stored)]
        }
    }

    /// The server form as a draft, or nil with a message on every wrong field (focus on the first).
    static func validateServer(_ form: inout FormState, saved: [Server] = []) -> ServerDraft? {
        let name = form.text("name").trimmingCharacters(in: .whitespaces)
        let host = form.text("host").trimmingCharacters(in: .whitespaces)
        let portText = form.text("port").trimmingCharacters(in: .whitespaces)
        let user = form.text("user").trimmingCharacters(in: .whitespaces)
        let authText = form.text("auth").trimmingCharacters(in: .whitespaces).lowercased()
        let keyPath = form.text("key").trimmingCharacters(in: .whitespaces)
        let osText = form.text("os").trimmingCharacters(in: .whitespaces).lowercased()
        let tags = form.text("tags").split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init)

        // The form reads its words (a port number, key/agent/password, a system); what a server may be is
        // Inventory's rule, the same `servers add` applies, shown beside the field it concerns.
        let port = Int(portText)
        let portValid = port.map { (1...65535).contains($0) } ?? false
        // `admin@web1:2222` or `ssh://admin@web1:2222` in Host: split by Inventory's one rule, as `servers add
        // --host` is. The User and Port fields count as given only when the person changed them (Port opens at 22).
        let edited = Set(form.fields.filter(\.isEdited).map(\.key))
        var address = ServerAddress.Parts(host: host)
        switch ServerAddress.split(host, user: edited.contains("user") && !user.isEmpty ? user : nil,
                                   port: edited.contains("port") && portValid ? port : nil) {
        case .success(let parts): address = parts
        case .failure(let problem): form.setError(problem.field.rawValue, formSentence(problem))
        }
        // An empty Port is fine when Host names the port.
        if !portValid && !(portText.isEmpty && address.port != nil) {
            form.setError("port", "A port is a number from 1 to 65535.")
        }
        let auth = AuthMethod(rawValue: authText.isEmpty ? "agent" : authText)
        if auth == nil { form.setError("auth", "Type key, agent or password.") }
        let os = ServerOS(rawValue: osText.isEmpty ? "auto" : osText)
        if os == nil { form.setError("os", "Type auto, linux, macos, bsd or windows.") }
        let algorithms = AlgorithmChoices(kex: form.text(ServerField.kexAlgorithms.rawValue),
                                          hostKeys: form.text(ServerField.hostKeyAlgorithms.rawValue),
                                          ciphers: form.text(ServerField.ciphers.rawValue),
                                          macs: form.text(ServerField.macs.rawValue))
        // The command line's rule (`--credential`): the spelling, and a command's program on PATH or absolute.
        var credential = CredentialSource.ask
        switch CredentialSourceCheck.parse(form.text("credential")) {
        case .success(let source): credential = source
        case .failure(let problem):
            // The spelling in the form's words (the line under the field is short); a program's problem as it is.
            let misspelt = if case .failure = CredentialSource.parse(form.text("credential")) { true } else { false }
            form.setError("credential", misspelt ? "Type ask, vault or command:PROGRAM ARGS." : problem.message)
        }
        let draft = ServerDraft(name: name, host: address.host, port: address.port ?? port ?? 22,
                                user: address.user ?? (user.isEmpty ? nil : user),
                                auth: auth ?? .agent, keyPath: keyPath.isEmpty ? nil : keyPath, os: os ?? .auto,
                                tags: tags, note: form.text("note"), algorithms: algorithms,
                                jump: form.text("jump").trimmingCharacters(in: .whitespaces),
                                credential: credential)
        for problem in draft.problems where form.fields.first(where: { $0.key == problem.field.rawValue })?.error == nil {
            form.setError(problem.field.rawValue, formSentence(problem))
        }
        // The jump chain's syntax is checked with the other rules; a loop through saved servers here (Operations).
        if form.fields.first(where: { $0.key == "jump" })?.error == nil,
           let loop = JumpHosts.problem(name: name, chain: draft.jump, saved: { hop in
               saved.first { $0.name == hop }
           }) {
            form.setError("jump", loop)
        }
        // Whether each name is an algorithm eSSH supports: the rule connecting applies (Operations).
        for problem in AlgorithmSelection.problems(algorithms, serverName: name) {
            guard let key = FormState.algorithmFields.first(where: { $0.kind == problem.kind })?.field.rawValue,
                  form.fields.first(where: { $0.key == key })?.error == nil else { continue }
            form.setError(key, formSentence(problem))
        }

        if let bad = form.fields.firstIndex(where: { $0.error != nil }) {
            form.focus = bad
            return nil
        }
        return draft
    }

    /// Inventory's problem as the form says it, short enough for the line under the field (Inventory's own
    /// sentences name the command line's flags).
    static func formSentence(_ problem: ServerProblem) -> String {
        if problem.controlCharacter { return "No control characters (Esc, tab, newline…) here." }
        switch problem.address {
        case .user(let inHost, let given)?: return "Host says user \(inHost), this says \(given): keep one."
        case .port(let inHost, let given)?: return "Host says port \(inHost), this says \(given): keep one."
        case .unreadable(let reason)?: return "Not an address: \(reason)."
        case nil: break
        }
        switch problem.field {
        case .name where problem.value.isEmpty: return "Give the server a name, e.g. web1."
        case .name: return "Use letters, digits and . _ - @ (not - or tag: first)."
        case .host where problem.value.isEmpty: return "Give a host name or address, e.g. 10.0.0.5."
        case .host: return "A host has no spaces and does not start with -."
        case .port: return "A port is a number from 1 to 65535."
        case .user: return "A user name has no spaces or @."
        case .key: return "auth key needs a key file, e.g. ~/.ssh/id_ed25519."
        case .tags: return "One word per tag, no commas inside."
        case .note: return "A note is plain text."
        case .kexAlgorithms, .hostKeyAlgorithms, .ciphers, .macs: return "Names separated by commas, no spaces."
        case .jump, .forwards, .credential: return problem.message
        }
    }

    /// An algorithm list eSSH cannot use, as the line under its field says it.
    static func formSentence(_ problem: AlgorithmProblem) -> String {
        switch problem.reason {
        case .unknown(let name): return "“\(name)” is not a \(problem.kind.noun) eSSH supports."
        case .nothingLeft: return "No \(problem.kind.noun) would be left to offer."
        case .syntax: return "Names separated by commas, no spaces."
        }
    }
}
