/// The screens of the terminal interface.
enum Screen: Sendable, Equatable {
    case servers
    case form
    case connecting
    case session
    case summary
    /// Results of one command run on several servers.
    case fleet
}
