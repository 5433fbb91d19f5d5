import SSH
import TUIKit

/// The SSH worker's questions on screen: the host key as a dialog, passwords and other answers as a masked field;
/// the typed answers go back as `Effect.answer`.
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
        case nil:
            _ = prompt.input.handle(key)
        }
        state.prompt = prompt
        return []
    }

    /// The box: the message wrapped (if any), the label, the field, then the problem with the last answer or
    /// what Enter and Esc do.
    static func render(_ prompt: PromptState, border: Border, into buffer: inout Buffer) -> Point? {
        let wanted = prompt.message.isEmpty ? max(50, DisplayWidth.of(prompt.currentLabel) + 4) : 76
        let width = min(buffer.size.width - 2, wanted)
        let message = prompt.message.isEmpty ? [] : DisplayWidth.wrap(prompt.message, to: max(1, width - 4)) + [""]
        let frame = buffer.area.centered(width: width, height: min(buffer.size.height, 6 + message.count))
        buffer.fill(frame)
        let inner = Box(title: prompt.title, border: border).render(in: frame, buffer: &buffer)
        for (i, line) in message.enumerated() {
            buffer.setString(line, x: inner.x + 1, y: inner.y + i, clip: inner)
        }
        let top = inner.y + message.count
        buffer.setString(prompt.currentLabel, x: inner.x + 1, y: top, clip: inner)
        let field = Rect(x: inner.x + 1, y: top + 1, width: max(0, inner.width - 2), height: 1)
        let cursor = prompt.input.render(in: field, buffer: &buffer, style: Theme.field)
        let hint = prompt.hostKeyFingerprint == nil ? "Enter: send   Esc: give up" : "Enter: answer   Esc: refuse"
        if let problem = prompt.problem {
            buffer.setString(problem, x: inner.x + 1, y: top + 3, style: Theme.error, clip: inner)
        } else {
            buffer.setString(hint, x: inner.x + 1, y: top + 3, style: Theme.hint, clip: inner)
        }
        return cursor
    }
}
