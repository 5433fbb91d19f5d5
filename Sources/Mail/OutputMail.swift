import Foundation

/// A command's output as an e-mail: the status block, then the output as text (invalid UTF-8 shown as U+FFFD,
/// never dropped). Output larger than `maxInline` bytes goes as a text attachment in a multipart/mixed message.
/// Every header field is checked before anything is built: a control character in From, To or Subject is refused.
public struct OutputMail: Sendable, Equatable {
    /// The sender address (`user@hostname` by default).
    public var from: String
    /// The recipients (each `local@domain` or a local user).
    public var to: [String]
    /// The subject, any Unicode text on one line.
    public var subject: String
    /// The status block's facts; nil for plain text mailed from stdin or a file.
    public var report: CommandReport?
    /// The output as received.
    public var output: [UInt8]
    /// Bytes of output shown inline at most; larger output is attached.
    public var maxInline: Int
    /// The attachment's file name.
    public var attachmentName: String
    /// The Date header's time.
    public var date: Date
    /// The time zone of the Date header and the status block.
    public var timeZone: TimeZone

    /// The default inline limit: 1 MiB.
    public static let defaultMaxInline = 1_048_576

    /// A message of `output` to `to`.
    public init(from: String = LocalIdentity.defaultFrom, to: [String], subject: String, report: CommandReport?,
                output: [UInt8], maxInline: Int = OutputMail.defaultMaxInline,
                attachmentName: String = "essh-output.txt", date: Date = Date(), timeZone: TimeZone = .current) {
        self.from = from
        self.to = to
        self.subject = subject
        self.report = report
        self.output = output
        self.maxInline = maxInline
        self.attachmentName = attachmentName
        self.date = date
        self.timeZone = timeZone
    }

    /// Checks the header fields and builds the message.
    public func compose() throws(MailError) -> ComposedMail {
        try MailAddress.validate(from, field: "From")
        if to.isEmpty { throw MailError(.invalidAddress, "", "Give at least one recipient, e.g. ops@example.org.") }
        for address in to { try MailAddress.validate(address, field: "To") }
        let from = MailAddress.qualified(self.from)
        let to = self.to.map { MailAddress.qualified($0) }
        try MailAddress.checkLength(to)
        try HeaderSafety.check(subject, field: "Subject")
        try HeaderSafety.check(attachmentName, field: "attachment name")

        let domain = from.split(separator: "@").dropFirst().first.map(String.init) ?? LocalIdentity.hostname
        let messageID = "<\(UUID().uuidString.lowercased()).essh@\(domain)>"
        var headers = [
            // Addresses are plain ASCII (MailAddress allows nothing else) and each list stays on one line:
            // `sendmail -t` reads recipients from a header's first physical line only.
            "From: " + from,
            "To: " + to.joined(separator: ", "),
            EncodedWord.header("Subject", subject),
            "Date: " + MailDate.format(date, timeZone: timeZone),
            "Message-ID: " + messageID,
            "MIME-Version: 1.0",
            "X-Mailer: essh",
        ]
        let block = report?.block(timeZone: timeZone) ?? ""
        let attached = output.count > maxInline
        var body: [UInt8]
        if attached {
            let boundary = "essh-" + UUID().uuidString.lowercased()
            headers.append("Content-Type: multipart/mixed;\n boundary=\"\(boundary)\"")
            let note = block + """
                The output (\(output.count) bytes) is larger than the inline limit of \(maxInline) bytes, \
                so it is attached as \(attachmentName).

                """
            let text = Array(String(decoding: output, as: UTF8.self).utf8)
            // A file name in a quoted parameter: anything beyond a safe ASCII set becomes "_".
            let name = String(attachmentName.unicodeScalars.map { s -> Character in
                s.isASCII && (s.properties.isAlphabetic || ("0"..."9").contains(s) || "._-".unicodeScalars.contains(s))
                    ? Character(s) : "_"
            })
            body = Array("""
                This is a MIME message; the output is in the attachment.

                --\(boundary)
                Content-Type: text/plain; charset=utf-8
                Content-Transfer-Encoding: quoted-printable


                """.utf8)
            body += QuotedPrintable.encode(Array(note.utf8))
            body += Array("""

                --\(boundary)
                Content-Type: text/plain; charset=utf-8; name="\(name)"
                Content-Disposition: attachment; filename="\(name)"
                Content-Transfer-Encoding: base64


                """.utf8)
            body += Array(Data(text).base64EncodedString(options: [.lineLength76Characters, .endLineWithLineFeed]).utf8)
            body += Array("\n--\(boundary)--\n".utf8)
        } else {
            headers.append("Content-Type: text/plain; charset=utf-8")
            headers.append("Content-Transfer-Encoding: quoted-printable")
            let text = block + String(decoding: output, as: UTF8.self)
            body = QuotedPrintable.encode(Array(text.utf8))
            // A soft break ends the body on a line end without adding a newline the output did not have.
            if body.last != UInt8(ascii: "\n") { body += [UInt8(ascii: "="), UInt8(ascii: "\n")] }
        }
        let bytes = Array((headers.joined(separator: "\n") + "\n\n").utf8) + body
        return ComposedMail(recipients: to, subject: subject, messageID: messageID, bytes: bytes, attached: attached)
    }
}
