import Inventory
import Operations

/// `I` on the Servers screen: installs the person's public key on the selected saved server (the key-install worker,
/// as `essh key install NAME`), shows each step in a box, then offers to switch a password server to the key.
extension Update {
    /// Starts the install on the selected server (one at a time: the box shows it until it is closed).
    static func installKey(_ state: inout AppState) -> [Effect] {
        guard let server = state.selectedServer else { return [] }
        state.keyInstall = KeyInstallState(server: server.name,
                                           lines: ["Installing your public key on \(server.name)…"])
        return [.work(.installKey(ConnectionProfile(server: server), knownHosts: state.settings.knownHosts))]
    }

    /// Keys while the box is shown: Esc cancels a running install; once it is over, Esc or Enter closes the box.
    /// Other keys do nothing meanwhile.
    static func keyInstallKey(_ state: inout AppState, _ action: ServersAction) -> [Effect] {
        guard let install = state.keyInstall else { return [] }
        switch (install.phase, action) {
        case (.running, .clearFilter):
            state.keyInstall?.lines.append("Cancelling…")
            return [.work(.cancelKeyInstall)]
        case (.installed, .clearFilter), (.installed, .connect), (.failed, .clearFilter), (.failed, .connect):
            state.keyInstall = nil
            return []
        default:
            return []
        }
    }

    static func keyInstallEvent(_ state: inout AppState, _ event: KeyInstallEvent) -> [Effect] {
        guard var install = state.keyInstall, install.phase == .running else { return [] }
        switch event {
        case .progress(let line):
            install.lines.append(line)
        case .failed(let reason):
            install.phase = .failed
            install.lines.append(reason)
            install.lines.append("Nothing was changed here.")
        case .installed(let offer):
            install.phase = .installed
            install.lines.append("Done: the key is installed on \(install.server) and logs in.")
            // Only a server still saved with a password login is offered the switch (it may have been edited
            // meanwhile).
            if let offer, let server = state.servers.first(where: { $0.name == install.server }),
               server.auth == .password {
                state.dialog = DialogState(purpose: .switchToKey(server: server.name, to: offer),
                                           title: "Log in with the key",
                                           message: "Switch \(server.name) from password to \(offer.words)?",
                                           buttons: ["No", "Yes"], selected: 0)
            }
        }
        state.keyInstall = install
        return []
    }

    /// The answer to the switch question: Yes saves the server with key (or agent) login through the store's edit,
    /// as `essh servers edit NAME --auth key --key PATH` does; No leaves it and says how to switch later.
    static func switchToKey(_ state: inout AppState, server name: String, to: KeySwitch, yes: Bool) -> [Effect] {
        guard yes, let server = state.servers.first(where: { $0.name == name }) else {
            state.keyInstall?.lines.append("\(name) still logs in by password (e edits it).")
            return []
        }
        var draft = ServerDraft(name: server.name, host: server.host, port: server.port, user: server.user,
                                auth: .agent, keyPath: nil, os: server.os, tags: server.tags, note: server.note,
                                algorithms: server.algorithms, jump: server.jump, forwards: server.forwards,
                                autostart: server.autostart, credential: server.credential)
        if case .keyFile(let path) = to {
            draft.auth = .key
            draft.keyPath = path
        }
        state.keyInstall?.lines.append("Switching \(name) to \(to.words)…")
        return [.saveServer(draft, replacing: name)]
    }
}
