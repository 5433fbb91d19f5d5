/// Something that delivers a finished message: the real one is `Sendmail`; unit tests use a fake.
public protocol MailTransport: Sendable {
    /// Hands `message` (headers and body) over for delivery to the recipients in its To header, or throws why not.
    func send(_ message: [UInt8]) throws(MailError)
}
