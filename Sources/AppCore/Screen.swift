/// The screen shown, with the state only that screen has. A form exists only on the Form screen, a session only on
/// the Session screen (or kept under the summary of a shell opened from it), a fleet run on the Fleet screen: a
/// combination that cannot happen cannot be written. What outlives a screen (the server list, settings, marks, the
/// overlays) is in `AppState` beside it.
enum Screen: Sendable {
    /// The saved servers; `filtering` while the filter bar (`/`) takes the keys.
    case servers(filtering: Bool)
    /// Add or edit a server, quick connect, settings.
    case form(FormState)
    case connecting(ConnectingState)
    case session(SessionState)
    /// The end of a session or of an interactive shell (a shell's summary may keep the session it came from).
    case summary(SummaryState)
    /// One command run on several servers: its results.
    case fleet(FleetRun)
    /// The saved and running tunnels (`u`); the tunnels themselves run on whatever screen is shown.
    case tunnels(TunnelsState)
    /// Two panes of files, this machine's and a server's (`f`, or F11 in a session), and the copies between them.
    case files(FilesState)

    /// The Servers screen with the filter bar closed.
    static var servers: Screen { .servers(filtering: false) }

    /// Which screen this is, without its state (the help's sections, whether the screen changed).
    enum Kind: Sendable, Equatable {
        case servers, form, connecting, session, summary, fleet, tunnels, files
    }

    var kind: Kind {
        switch self {
        case .servers: return .servers
        case .form: return .form
        case .connecting: return .connecting
        case .session: return .session
        case .summary: return .summary
        case .fleet: return .fleet
        case .tunnels: return .tunnels
        case .files: return .files
        }
    }

    /// The open session: the one shown, or the one a shell's summary goes back to.
    var session: SessionState? {
        switch self {
        case .session(let session): return session
        case .summary(let summary): return summary.session
        default: return nil
        }
    }
}
