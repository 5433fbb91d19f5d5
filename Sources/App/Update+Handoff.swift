extension Update {
    /// The terminal is back after a handoff: say how the handed-over work ended.
    static func handedBack(_ state: inout AppState, _ outcome: HandoffOutcome) -> [Effect] {
        switch outcome {
        case .piped(let command, let result):
            state.notice = "Piped the output into `\(command)`: \(result.summary)."
        case .shell(let outcome):
            return shellEnded(&state, outcome)
        }
        return []
    }
}
