/// Which way a search goes.
public enum SearchDirection: Sendable {
    /// Towards newer lines.
    case forward
    /// Towards older lines.
    case backward
}
