import Basics
import CLibSSH2
import Foundation

/// Logs in with what the server allows, in OpenSSH's order: public keys (the `-i` files, or the agent and the
/// default key files), keyboard-interactive, then password. On failure the error names what the server allows and
/// what was tried. Secrets come from the `Prompter`, are passed to libssh2 and are never stored or logged.
struct Authenticator {
    let io: SessionIO
    let options: ConnectOptions
    let prompter: Prompter
    let context: SessionContext

    private var user: String { options.user }
    private var userLength: UInt32 { UInt32(user.utf8.count) }

    /// The login methods the server allows this user (`publickey`, `password`, …); nil when it let the user in
    /// without any (SSH's `none` method).
    func allowedMethods() throws(SSHError) -> [String]? {
        let raw = io.raw
        var listPointer: UnsafeMutablePointer<CChar>?
        while true {
            listPointer = libssh2_userauth_list(raw, user, userLength)
            if listPointer != nil || libssh2_session_last_errno(raw) != LIBSSH2_ERROR_EAGAIN { break }
            try io.waitOrThrow("asking which login methods the server allows")
        }
        guard let listPointer else {
            if libssh2_userauth_authenticated(raw) != 0 { return nil }
            throw io.error("asking which login methods the server allows", libssh2_session_last_errno(raw))
        }
        return String(cString: listPointer).split(separator: ",").map(String.init)
    }

    /// Returns the identity that logged in. A `preferredIdentity` is offered before anything else.
    func authenticate(onStage: (ConnectStage) -> Void) throws(SSHError) -> LoginIdentity {
        let raw = io.raw
        guard let allowed = try allowedMethods() else { return .none }
        if let banner = Self.banner(raw) { onStage(.banner(banner)) }
        var tried: [String] = []

        if allowed.contains("publickey") {
            let explicit = !options.identityFiles.isEmpty
            let agentSocket = options.useAgent
                ? options.agentSocket ?? ProcessInfo.processInfo.environment["SSH_AUTH_SOCK"] : nil
            var preferredFile: String?
            var preferredAgentKey: String?
            switch options.preferredIdentity {
            case .keyFile(let path)?:
                preferredFile = path
                onStage(.authenticating(method: "publickey"))
                if let identity = try keyFile(path, explicit: false, tried: &tried) { return identity }
            case .agentKey(let fingerprint)?:
                preferredAgentKey = fingerprint
            case nil:
                break
            }
            if let agentSocket, !explicit || preferredAgentKey != nil {
                onStage(.authenticating(method: "agent"))
                if let identity = try agent(agentSocket, first: preferredAgentKey, onlyFirst: explicit,
                                            tried: &tried) {
                    return identity
                }
            }
            for path in explicit ? options.identityFiles : ConnectOptions.defaultIdentityFiles
            where path != preferredFile {
                onStage(.authenticating(method: "publickey"))
                if let identity = try keyFile(path, explicit: explicit, tried: &tried) { return identity }
            }
        }
        if allowed.contains("keyboard-interactive") && options.allowKeyboardInteractive {
            onStage(.authenticating(method: "keyboard-interactive"))
            if try keyboardInteractive(tried: &tried) { return .keyboardInteractive }
        }
        if allowed.contains("password") && options.allowPassword {
            onStage(.authenticating(method: "password"))
            if try password(tried: &tried) { return .password }
        }
        let message = "Permission denied for \(user)@\(options.host): the server allows "
            + allowed.joined(separator: ", ") + "; tried "
            + (tried.isEmpty ? "nothing that fits" : tried.joined(separator: "; ")) + "."
        let remedy: SSHError.Remedy? = tried.isEmpty && allowed.contains("password") && !options.allowPassword
            ? .givePassword : nil
        throw SSHError(.authenticationFailed, "allowed: \(allowed.joined(separator: ","))", message, remedy: remedy)
    }

    /// The banner the server sent before login (sshd's `Banner`), if any: libssh2 keeps it once the first
    /// authentication request was answered. Raw bytes decoded as UTF-8; callers sanitise before printing.
    static func banner(_ raw: OpaquePointer) -> String? {
        var pointer: UnsafeMutablePointer<CChar>?
        guard libssh2_userauth_banner(raw, &pointer) == 0, let pointer else { return nil }
        let text = String(decoding: UnsafeRawBufferPointer(start: pointer, count: strlen(pointer)), as: UTF8.self)
        return text.isEmpty ? nil : text
    }

    /// The key file's identity when it logged in, nil when it did not.
    private func keyFile(_ path: String, explicit: Bool, tried: inout [String]) throws(SSHError) -> LoginIdentity? {
        let key: KeyFile
        do throws(SSHError) {
            key = try KeyFile(path: path)
        } catch {
            if explicit { throw error }
            tried.append("\(path) (\(error.detail))")
            return nil
        }
        var attempt = 0
        while true {
            attempt += 1
            var passphrase: String?
            if key.encrypted {
                passphrase = prompter.passphrase(keyFile: path, attempt: attempt)
                if passphrase == nil {
                    tried.append("key \(path) (needs a passphrase; none given)")
                    return nil
                }
            }
            let rc = try io.call("logging in with the key \(path)", allowNegative: true) {
                libssh2_userauth_publickey_fromfile_ex(io.raw, user, userLength, nil, path, passphrase)
            }
            if rc == 0 { return .keyFile(path: path, fingerprint: key.fingerprint) }
            if rc == LIBSSH2_ERROR_FILE && key.encrypted && attempt < 3 { continue }
            if rc == LIBSSH2_ERROR_FILE {
                if key.encrypted {
                    tried.append("key \(path) (wrong passphrase)")
                } else {
                    tried.append("key \(path) (libssh2 cannot read it: \(io.lastErrorMessage))")
                }
                return nil
            }
            if rc == LIBSSH2_ERROR_SOCKET_DISCONNECT || rc == LIBSSH2_ERROR_SOCKET_RECV {
                throw io.error("logging in", rc)
            }
            tried.append("key \(path) (refused by the server)")
            return nil
        }
    }

    /// Offers the agent's keys: the one whose fingerprint is `first` before the others (only that one when
    /// `onlyFirst`). Returns the identity that logged in, nil when none did.
    private func agent(_ socket: String, first: String?, onlyFirst: Bool,
                       tried: inout [String]) throws(SSHError) -> LoginIdentity? {
        guard let agent = libssh2_agent_init(io.raw) else { return nil }
        defer { libssh2_agent_free(agent) }
        libssh2_agent_set_identity_path(agent, socket)
        guard libssh2_agent_connect(agent) == 0 else {
            tried.append("agent (cannot connect to \(socket))")
            return nil
        }
        defer { libssh2_agent_disconnect(agent) }
        guard libssh2_agent_list_identities(agent) == 0 else {
            tried.append("agent (cannot list its keys)")
            return nil
        }
        var keys: [(identity: UnsafeMutablePointer<libssh2_agent_publickey>, comment: String, fingerprint: String)] = []
        var previous: UnsafeMutablePointer<libssh2_agent_publickey>?
        while true {
            var identity: UnsafeMutablePointer<libssh2_agent_publickey>?
            let rc = libssh2_agent_get_identity(agent, &identity, previous)
            guard rc == 0, let identity else { break }
            previous = identity
            let blob = identity.pointee.blob.map { [UInt8](UnsafeBufferPointer(start: $0, count: identity.pointee.blob_len)) }
            let comment = identity.pointee.comment.map { String(cString: $0) } ?? ""
            keys.append((identity, comment.isEmpty ? "key \(keys.count + 1)" : comment,
                         LoginIdentity.fingerprint(ofBlob: blob ?? [])))
        }
        if let first {
            let preferred = keys.filter { $0.fingerprint == first }
            if preferred.isEmpty { tried.append("agent key \(first) (not in the agent)") }
            keys = preferred + (onlyFirst ? [] : keys.filter { $0.fingerprint != first })
        }
        var refused = 0
        for key in keys {
            let auth = try io.call("logging in with the agent's key \(key.comment)", allowNegative: true) {
                libssh2_agent_userauth(agent, user, key.identity)
            }
            if auth == 0 { return .agentKey(comment: key.comment, fingerprint: key.fingerprint) }
            if auth == LIBSSH2_ERROR_SOCKET_DISCONNECT || auth == LIBSSH2_ERROR_SOCKET_RECV {
                throw io.error("logging in with the agent's keys (\(refused) refused before)", auth)
            }
            refused += 1
        }
        if first == nil || !onlyFirst || refused > 0 {
            tried.append(keys.isEmpty ? "agent (holds no keys)" : "agent (\(CountText.text(refused, "key")) refused)")
        }
        return nil
    }

    private func keyboardInteractive(tried: inout [String]) throws(SSHError) -> Bool {
        var gaveUp = false
        var attempt = 0
        while attempt < 3 {
            attempt += 1
            context.keyboardInteractive = { name, instruction, prompts in
                let answers = prompter.keyboardInteractive(user: options.user, host: options.host, name: name,
                                                           instruction: instruction, prompts: prompts)
                if answers == nil { gaveUp = true }
                return answers
            }
            defer { context.keyboardInteractive = nil }
            let rc = try io.call("logging in (keyboard-interactive)", allowNegative: true) {
                libssh2_userauth_keyboard_interactive_ex(io.raw, user, userLength, keyboardInteractiveCallback)
            }
            if rc == 0 { return true }
            if rc == LIBSSH2_ERROR_SOCKET_DISCONNECT || rc == LIBSSH2_ERROR_SOCKET_RECV {
                throw io.error("logging in", rc)
            }
            if gaveUp { break }
        }
        tried.append(gaveUp && attempt == 1 ? "keyboard-interactive (no answers given)" : "keyboard-interactive (refused)")
        return false
    }

    private func password(tried: inout [String]) throws(SSHError) -> Bool {
        var attempt = 0
        var given = 0
        while attempt < 3 {
            attempt += 1
            guard let secret = prompter.password(user: user, host: options.host, attempt: attempt) else { break }
            given += 1
            let rc = try io.call("logging in with a password", allowNegative: true) {
                libssh2_userauth_password_ex(io.raw, user, userLength, secret, UInt32(secret.utf8.count), nil)
            }
            if rc == 0 { return true }
            if rc == LIBSSH2_ERROR_PASSWORD_EXPIRED {
                throw SSHError(.authenticationFailed, "password expired",
                               "The password of \(user)@\(options.host) has expired: change it with ssh first.")
            }
            if rc == LIBSSH2_ERROR_SOCKET_DISCONNECT || rc == LIBSSH2_ERROR_SOCKET_RECV {
                throw io.error("logging in", rc)
            }
        }
        tried.append(given == 0 ? "password (none given)" : "password (wrong)")
        return false
    }
}

/// libssh2's keyboard-interactive callback: a C function, so it finds the session's Swift context through the
/// `abstract` pointer given to `libssh2_session_init_ex`. Answers are malloc'd because libssh2 frees them.
private let keyboardInteractiveCallback: @convention(c) (
    UnsafePointer<CChar>?, Int32, UnsafePointer<CChar>?, Int32, Int32,
    UnsafePointer<LIBSSH2_USERAUTH_KBDINT_PROMPT>?, UnsafeMutablePointer<LIBSSH2_USERAUTH_KBDINT_RESPONSE>?,
    UnsafeMutablePointer<UnsafeMutableRawPointer?>?
) -> Void = { name, nameLength, instruction, instructionLength, count, prompts, responses, abstract in
    guard let abstract, let pointer = abstract.pointee, let responses else { return }
    let context = Unmanaged<SessionContext>.fromOpaque(pointer).takeUnretainedValue()
    func text(_ p: UnsafeRawPointer?, _ n: Int32) -> String {
        guard let p, n > 0 else { return "" }
        return String(decoding: UnsafeRawBufferPointer(start: p, count: Int(n)), as: UTF8.self)
    }
    var list: [(text: String, echo: Bool)] = []
    for i in 0..<Int(count) {
        guard let prompt = prompts?[i] else { continue }
        list.append((text(prompt.text, Int32(prompt.length)), prompt.echo != 0))
    }
    let answers = context.keyboardInteractive?(text(name, nameLength), text(instruction, instructionLength), list)
    for i in 0..<Int(count) {
        let answer = answers.flatMap { i < $0.count ? $0[i] : nil } ?? ""
        responses[i].text = strdup(answer)
        responses[i].length = UInt32(answer.utf8.count)
    }
}
