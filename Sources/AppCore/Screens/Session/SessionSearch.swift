import TUIKit

/// Searching the session's output: the term being typed, the term searched for, and the match shown.
struct SessionSearch: Sendable {
    /// The search bar (it replaces the command line while open).
    var input = TextField()
    /// The term the matches are for (set by Enter); empty before the first search.
    var term = ""
    /// The match the view shows, highlighted more strongly than the others.
    var current: SearchMatch?
    /// `Not found: term` after a search that found nothing.
    var notFound = false
}
