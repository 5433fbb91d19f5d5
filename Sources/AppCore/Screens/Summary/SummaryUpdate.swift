/// The end-of-session (or end-of-shell) summary's keys.
extension Update {
    static func summaryKey(_ state: inout AppState, _ action: SummaryAction?) -> [Effect] {
        switch action {
        case .save?:
            guard let draft = state.summary?.unsaved else { return [] }
            state.show(.form(.server(draft: draft)))
            return []
        case .back?:
            if let session = state.summary?.session {
                state.show(.session(session))
                return []
            }
            state.show(.servers)
            return [.load]
        case .quit?:
            state.shouldQuit = true
            return []
        case nil: return []
        }
    }
}
