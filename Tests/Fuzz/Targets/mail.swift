import Foundation
@testable import Mail

/// Input fields, cut at 0xFF: options, From, To (a list), Subject, attachment name, output. Addresses, header checks,
/// encoded words, quoted-printable and whole messages: nothing crashes; no header can be injected; every header line
/// is printable ASCII within RFC 5322's limits; the Subject and the body decode back to what was given.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let fields = FuzzInput(data, size).fields(6)
    let options = fields[0].first ?? 0
    let text = fields[1...4].map { String(decoding: $0, as: UTF8.self) }
    let (from, toList, subject, attachmentName) = (text[0], text[1], text[2], text[3])
    let output = fields[5]

    if let addresses = try? MailAddress.parseList(toList) {
        require(!addresses.isEmpty, "an empty list was accepted")
        for address in addresses {
            require((try? MailAddress.validate(address)) != nil, "\(address.debugDescription) listed but not valid")
        }
    }
    if (try? MailAddress.validate(from, field: "From")) != nil {
        require(!from.unicodeScalars.contains(where: HeaderSafety.isForbidden), "From \(from.debugDescription)")
        require(from.unicodeScalars.allSatisfy(\.isASCII), "non-ASCII address \(from.debugDescription)")
    }
    _ = EncodedWord.decode(subject)

    let encoded = QuotedPrintable.encode(output)
    require(QuotedPrintable.decode(encoded) == output, "quoted-printable does not decode back")
    for line in encoded.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
        require(line.count <= 76, "quoted-printable line of \(line.count)")
        require(!line.starts(with: "From ".utf8), "a line starts with From")
        require(line.allSatisfy { (0x20...0x7E).contains($0) || $0 == 0x09 }, "quoted-printable not ASCII")
    }

    if (try? HeaderSafety.check(subject, field: "Subject")) != nil {
        let header = EncodedWord.header("Subject", subject)
        checkHeaderLines(header, oneField: true)
        for line in header.split(separator: "\n") {
            require(line.utf8.count <= 78, "Subject line of \(line.utf8.count) bytes: \(line.debugDescription)")
        }
        require(header.hasPrefix("Subject: "), "header \(header.debugDescription)")
        let decoded = EncodedWord.decode(String(header.dropFirst("Subject: ".count)))
        require(decoded == subject, "Subject \(subject.debugDescription) decodes as \(decoded.debugDescription)")
    }
    let report = CommandReport(server: "web1", user: "root", command: subject, exitStatus: options & 2 == 0 ? 0 : nil,
                               startedAt: Date(timeIntervalSince1970: 1_800_000_000), duration: 1.5)
    require((try? HeaderSafety.check(report.defaultSubject, field: "Subject")) != nil,
            "default subject \(report.defaultSubject.debugDescription)")

    let mail = OutputMail(from: from, to: toList.split(separator: ",").map(String.init), subject: subject,
                          report: options & 1 == 0 ? nil : report, output: output,
                          maxInline: options & 4 == 0 ? OutputMail.defaultMaxInline : Int(options >> 3),
                          attachmentName: attachmentName, date: Date(timeIntervalSince1970: 1_800_000_000),
                          timeZone: TimeZone(identifier: "UTC")!)
    let composed: ComposedMail
    do {
        composed = try mail.compose()
    } catch {
        require(error.kind == .invalidAddress || error.kind == .headerInjection, "error \(error)")
        return 0
    }
    for field in [from, subject, attachmentName] + mail.to {
        require((try? HeaderSafety.check(field, field: "")) != nil, "\(field.debugDescription) got into a message")
    }
    let message = composed.bytes
    guard let end = message.indices.first(where: { message[$0] == 0x0A && $0 + 1 < message.count && message[$0 + 1] == 0x0A })
    else { require(false, "no end of the header"); return 0 }
    let head = String(decoding: message[..<end], as: UTF8.self)
    checkHeaderLines(head, oneField: false)
    let names = head.split(separator: "\n").filter { !$0.hasPrefix(" ") }.map { $0.prefix { $0 != ":" } }
    let expected = ["From", "To", "Subject", "Date", "Message-ID", "MIME-Version", "X-Mailer", "Content-Type"]
        + (composed.attached ? [] : ["Content-Transfer-Encoding"])
    require(names.map(String.init) == expected, "header fields \(names)")
    if !composed.attached {
        let body = Array(message[(end + 2)...])
        let text = (mail.report?.block(timeZone: mail.timeZone) ?? "") + String(decoding: output, as: UTF8.self)
        require(QuotedPrintable.decode(body) == Array(text.utf8), "the body does not decode back")
    }
    return 0
}

/// Header lines: printable ASCII, at most 998 bytes (RFC 5322 2.1.1); one field's lines after its first are
/// continuations (they start with a space).
func checkHeaderLines(_ header: String, oneField: Bool) {
    for (i, line) in header.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
        require(line.utf8.count <= 998, "header line of \(line.utf8.count) bytes")
        require(line.utf8.allSatisfy { (0x20...0x7E).contains($0) }, "header line \(line.debugDescription)")
        require(!oneField || i == 0 || line.hasPrefix(" "), "a header line that is not a continuation: \(line.debugDescription)")
    }
}
