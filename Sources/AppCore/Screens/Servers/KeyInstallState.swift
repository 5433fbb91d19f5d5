/// What the key-install worker says while it puts the person's public key on a saved server (`I`), as
/// `essh key install NAME` does: each step as `KeyInstall` reports it, then the end.
package enum KeyInstallEvent: Sendable, Equatable {
    /// A step done (the key chosen, logged in, a change on the server, the key's own login checked), as a sentence.
    case progress(String)
    /// Installed and verified. `offer`: what the saved server (which logs in by password) could switch to; nil when
    /// there is nothing to offer.
    case installed(offer: KeySwitch?)
    /// Why it stopped, as a sentence; nothing was changed on this machine.
    case failed(String)
}

/// What a saved password server can switch to after its key was installed.
package enum KeySwitch: Sendable, Equatable {
    /// The private key file beside the installed `.pub`.
    case keyFile(String)
    /// The agent's keys (the private key is not on disk, the agent holds it).
    case agent

    /// `the key ~/.ssh/id_ed25519`, `the agent's keys`.
    var words: String {
        switch self {
        case .keyFile(let path): return "the key \(path)"
        case .agent: return "the agent's keys"
        }
    }
}

/// A key install running or finished, shown in a box over the servers list until Esc (or Enter) closes it once it is
/// over; while it runs, Esc cancels it.
struct KeyInstallState: Sendable, Equatable {
    enum Phase: Sendable, Equatable { case running, installed, failed }

    /// The saved server's name.
    var server: String
    /// Each step, oldest first.
    var lines: [String]
    var phase = Phase.running
}
