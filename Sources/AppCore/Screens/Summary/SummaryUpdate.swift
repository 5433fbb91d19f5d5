/// The end-of-session (or end-of-shell) summary's keys.
extension Update {
    static func summaryKey(_ state: inout AppState, _ action: SummaryAction?) -> [Effect] {
        switch action {
        case .save?:
            guard let draft = state.summary?.unsaved else { return [] }
            state.summary = nil
            state.form = .server(draft: draft)
            state.screen = .form
            return []
        case .back?:
            if state.summary?.returnTo == .session, state.session != nil {
                state.summary = nil
                state.screen = .session
                return []
            }
            state.summary = nil
            state.screen = .servers
            return [.load]
        case .quit?:
            state.shouldQuit = true
            return []
        case nil: return []
        }
    }
}
