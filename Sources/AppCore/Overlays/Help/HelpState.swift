/// The help over the screen: how far it is scrolled (its lines are the screen's keys, see `HelpOverlay`).
struct HelpState: Sendable, Equatable {
    /// The first line shown.
    var top = 0
}
