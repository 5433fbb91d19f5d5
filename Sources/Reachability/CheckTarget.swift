/// A host and port to check.
public struct CheckTarget: Sendable, Equatable {
    /// Host name or address.
    public var host: String
    /// TCP port.
    public var port: Int

    /// A target.
    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }
}
