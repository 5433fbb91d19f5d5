/// A message ready for sendmail: its bytes (headers and body, "\n" line ends) and what the outbox lists.
public struct ComposedMail: Sendable, Equatable {
    /// The addresses in To.
    public let recipients: [String]
    /// The subject as the person wrote it (not encoded).
    public let subject: String
    /// The Message-ID header's value, with its angle brackets.
    public let messageID: String
    /// The whole message.
    public let bytes: [UInt8]
    /// True when the output went as an attachment because it was larger than the inline limit.
    public let attached: Bool
}
