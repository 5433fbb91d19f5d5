import TUIKit

/// The SSH worker's questions on screen: the host key as a dialog, passwords and other answers as a masked field;
/// the typed answers go back as `Effect.answer`.
enum PromptOverlay {
    /// Opens the dialog or the field for `request`.
    static func show(_ state: inout AppState, _ request: PromptRequest) {
        switch request.kind {
        case .hostKey(let host, let port, let type, let fingerprint):
            let place = port == 22 ? host : "[\(host)]:\(port)"
            state.dialog = DialogState(
                purpose: .hostKey(request.id), title: "Unknown host key",
                message: "eSSH has never seen \(place) before. Its \(type) key has the fingerprint "
                    + "\(fingerprint). Compare it with the one your administrator gave you. Trust it?",
                buttons: ["Accept and save", "Once", "Cancel"])
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
        }
    }

    static func key(_ state: inout AppState, _ prompt: PromptState, _ action: PromptAction?, _ key: Key) -> [Effect] {
        var prompt = prompt
        switch action {
        case .giveUp?:
            state.prompt = nil
            return [.answer(id: prompt.id, .text(nil))]
        case .answer?:
            prompt.answers.append(prompt.input.text)
            if prompt.answers.count >= prompt.labels.count {
                state.prompt = nil
                return [.answer(id: prompt.id, .text(prompt.answers))]
            }
            let echo = prompt.echo.indices.contains(prompt.answers.count) ? prompt.echo[prompt.answers.count] : false
            prompt.input = TextField(masked: !echo)
        case nil:
            _ = prompt.input.handle(key)
        }
        state.prompt = prompt
        return []
    }

    static func render(_ prompt: PromptState, border: Border, into buffer: inout Buffer) -> Point? {
        QuestionBox(title: prompt.title, question: prompt.currentLabel, hint: "Enter: send   Esc: give up",
                    border: border, fieldStyle: Theme.field, hintStyle: Theme.hint)
            .render(prompt.input, in: Rect(buffer.size).inset(horizontal: 1, vertical: 0), buffer: &buffer)
    }
}
