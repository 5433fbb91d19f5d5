/// What the end-of-session screen shows.
struct SummaryState: Sendable, Equatable {
    var title: String
    var seconds: Int
    var commands: Int
    /// Why the session ended when it was not the person's choice.
    var reason: String?
}
