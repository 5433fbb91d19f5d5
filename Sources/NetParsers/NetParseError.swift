import Basics

/// The one error type of NetParsers: what went wrong, the detail, and a sentence for the user.
public struct NetParseError: UserFacingError, Sendable, Equatable {
    /// What kind of failure this is.
    public enum Code: String, Sendable {
        /// No known layout matched the text.
        case unrecognised
        /// The text is empty or blank.
        case empty
        /// The chosen `--format` cannot produce the asked kind (e.g. `ss` for interfaces).
        case formatNotForKind
    }

    /// The failure's kind.
    public let code: Code
    /// The formats that were tried, in order.
    public let tried: [InputFormat]
    /// The underlying detail (e.g. the JSON decoder's message), if any.
    public let underlying: String?

    /// Creates an error.
    public init(code: Code, tried: [InputFormat], underlying: String? = nil) {
        self.code = code
        self.tried = tried
        self.underlying = underlying
    }

    /// A human sentence naming what was tried and what to do (with the underlying detail, when there is one).
    public var message: String {
        let names = tried.map(\.rawValue).joined(separator: ", ")
        switch code {
        case .empty:
            return "The input is empty: give the output of one of: \(names)."
        case .formatNotForKind:
            return "That --format has no layout for this kind of data; it can read: \(names.isEmpty ? "none" : names)."
        case .unrecognised:
            let detail = underlying.map { " (\($0))" } ?? ""
            return "The input is not in a layout eSSH recognises\(detail). Tried: \(names). "
                + "Check it is the unmodified output of one of those commands, or pass --format."
        }
    }
}
