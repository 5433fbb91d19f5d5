import SSH
import TUIKit

/// The SSH worker's questions on screen in a `QuestionBox`: the host key's typed answer under its fingerprint (which
/// scrolls with ↑/↓ on a short screen), passwords and other answers in a masked field; the typed answers go back as
/// `Effect.answer`.
enum PromptOverlay {
    /// Opens the dialog or the field for `request`.
    static func show(_ state: inout AppState, _ request: PromptRequest) {
        switch request.kind {
        case .hostKey(let host, let port, let type, let fingerprint, let alsoKnownAs):
            let place = port == 22 ? host : "[\(host)]:\(port)"
            var message = "eSSH has never seen \(place) before. Its \(type) key has the fingerprint "
                + "\(fingerprint). Compare it with the one your administrator gave you."
            if !alsoKnownAs.isEmpty {
                // As OpenSSH: the same key under another name is most likely the same server.
                message += "\nThis key is already known as " + HostKeyQuestion.shortList(alsoKnownAs) + "."
            }
            state.prompt = PromptState(
                id: request.id, title: "Unknown host key", message: message,
                labels: ["Trust it? Type yes (save it), once (this time only) or no:"], echo: [true],
                hostKeyFingerprint: fingerprint)
        case .password(let user, let host, let attempt):
            state.prompt = PromptState(id: request.id, title: attempt > 1 ? "Wrong password, try again" : "Password",
                                       labels: ["Password for \(user)@\(host):"], echo: [false])
        case .passphrase(let file, let attempt):
            state.prompt = PromptState(id: request.id,
                                       title: attempt > 1 ? "Wrong passphrase, try again" : "Passphrase",
                                       labels: ["Passphrase for \(file):"], echo: [false])
        case .keyboard(let instruction, let prompts, let echo):
            state.prompt = PromptState(id: request.id, title: instruction.isEmpty ? "The server asks" : instruction,
                                       labels: prompts, echo: echo)
        case .vaultPassphrase(let attempt, let problem, let purpose):
            var prompt = PromptState(id: request.id, title: attempt > 1 ? "Wrong vault passphrase" : "Vault locked",
                                     message: vaultMessage(purpose), labels: ["Vault passphrase:"], echo: [false])
            prompt.problem = problem.map { attempt > 1 ? "\($0) Try again (\(attempt) of 3)." : $0 }
            prompt.hint = "Enter: unlock   Esc: not now"
            prompt.ofConnection = request.belongsToConnection
            state.prompt = prompt
        }
    }

    /// Closes the question a connection asked (it failed or ended); a question that is not the connection's stays.
    static func closeConnectionPrompt(_ state: inout AppState) {
        if state.prompt?.ofConnection == true { state.prompt = nil }
    }

    /// Why the vault's passphrase is asked and what Esc does instead.
    static func vaultMessage(_ purpose: PromptRequest.VaultPurpose) -> String {
        switch purpose {
        case .login(let server):
            let name = server.map { TextSanitizer.line($0) } ?? "this server"
            return "The login to \(name) takes its secret from the vault. Unlock it for this run of eSSH "
                + "(Esc: type the server's password instead)."
        case .remember(let server):
            return "Unlock the vault to remember the password of \(TextSanitizer.line(server))."
        case .fleetRun:
            return "Servers of this run take their passwords from the vault. Unlock it for this run of eSSH "
                + "(Esc: those servers are reported without a password)."
        }
    }

    static func key(_ state: inout AppState, _ prompt: PromptState, _ action: PromptAction?, _ key: Key) -> [Effect] {
        var prompt = prompt
        switch action {
        case .giveUp?:
            state.prompt = nil
            return [.answer(id: prompt.id, prompt.hostKeyFingerprint == nil ? .text(nil) : .hostKey(.reject))]
        case .answer? where prompt.hostKeyFingerprint != nil:
            // Enter alone never trusts a key: only a typed answer does.
            guard let decision = PromptState.hostKeyDecision(prompt.input.text,
                                                             fingerprint: prompt.hostKeyFingerprint ?? "") else {
                prompt.problem = "Type yes, once or no (Esc refuses the key)."
                state.prompt = prompt
                return []
            }
            state.prompt = nil
            return [.answer(id: prompt.id, .hostKey(decision))]
        case .answer?:
            prompt.answers.append(prompt.input.text)
            if prompt.answers.count >= prompt.labels.count {
                state.prompt = nil
                return [.answer(id: prompt.id, .text(prompt.answers))]
            }
            let echo = prompt.echo.indices.contains(prompt.answers.count) ? prompt.echo[prompt.answers.count] : false
            prompt.input = TextField(masked: !echo)
        case .scrollUp?, .scrollDown?:
            let last = widget(prompt, border: .unicode).layout(in: area(state.size)).lastTop
            prompt.top = min(max(0, prompt.top + (action == .scrollUp ? -1 : 1)), last)
        case nil:
            _ = prompt.input.handle(key)
        }
        state.prompt = prompt
        return []
    }

    /// The box: the message wrapped (if any, scrolled to `top`), the label, the field, then the problem with the last
    /// answer or what Enter and Esc do.
    static func render(_ prompt: PromptState, border: Border, into buffer: inout Buffer) -> Point? {
        widget(prompt, border: border).render(prompt.input, in: area(buffer.size), top: prompt.top, buffer: &buffer)
    }

    /// Where a question may go on a screen of `size`.
    static func area(_ size: Size) -> Rect { Rect(size).inset(horizontal: 1, vertical: 0) }

    static func widget(_ prompt: PromptState, border: Border) -> QuestionBox {
        let hint = prompt.hint
            ?? (prompt.hostKeyFingerprint == nil ? "Enter: send   Esc: give up" : "Enter: answer   Esc: refuse")
        return QuestionBox(title: prompt.title, question: prompt.currentLabel, hint: hint, message: prompt.message,
                           problem: prompt.problem, width: prompt.message.isEmpty ? 50 : 76, border: border,
                           fieldStyle: Theme.field, hintStyle: Theme.hint, problemStyle: Theme.error)
    }
}
