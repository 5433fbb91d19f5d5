import Foundation
import Mail
import TestSupport
import Testing

/// The message builder, checked by an independent parser (Python's `email`).
@Suite struct OutputMailTests {
    let report = CommandReport(server: "web1", user: "ops", command: "df -h", exitStatus: 0,
                               startedAt: Date(timeIntervalSince1970: 1_790_000_000), duration: 1.25)

    func mail(subject: String = "essh: df -h on web1", output: String = "Filesystem Size\n/dev/sda1 10G\n",
              maxInline: Int = OutputMail.defaultMaxInline) -> OutputMail {
        OutputMail(from: "ops@example.org", to: ["a@example.org", "b@example.org"], subject: subject, report: report,
                   output: Array(output.utf8), maxInline: maxInline, timeZone: TimeZone(identifier: "UTC")!)
    }

    @Test func headersAreCompleteAndWellFormed() throws {
        let composed = try mail().compose()
        let parsed = try MailInspector.parse(composed.bytes)
        #expect(parsed.defects.isEmpty)
        #expect(parsed.asciiHeaders)
        #expect(parsed.header("From") == "ops@example.org")
        #expect(parsed.header("To") == "a@example.org, b@example.org")
        #expect(parsed.header("Subject") == "essh: df -h on web1")
        #expect(parsed.header("MIME-Version") == "1.0")
        #expect(parsed.header("Message-ID") == composed.messageID)
        #expect(composed.messageID.hasPrefix("<") && composed.messageID.hasSuffix("@example.org>"))
        let date = try #require(parsed.header("Date"))
        #expect(MailDate.parse(date) != nil)
        #expect(parsed.parts.count == 1)
        #expect(parsed.parts[0].contentType == "text/plain")
        #expect(parsed.parts[0].charset == "utf-8")
        #expect(parsed.parts[0].transferEncoding == "quoted-printable")
        #expect(parsed.longestLine <= 78)
    }

    @Test func bodyStartsWithTheStatusBlockThenTheOutput() throws {
        let text = try #require(try MailInspector.parse(try mail().compose().bytes).parts.first?.text)
        #expect(text == """
            Server:      web1
            User:        ops
            Command:     df -h
            Exit status: 0 (success)
            Started:     2026-09-21 14:13:20 +0000
            Duration:    1.250 s

            Filesystem Size
            /dev/sda1 10G

            """)
    }

    @Test func statusBlockNamesFailuresAndSignals() {
        var failed = report
        failed.exitStatus = 3
        #expect(failed.block().contains("Exit status: 3 (failure)\n"))
        failed.exitStatus = nil
        failed.signal = "TERM"
        #expect(failed.block().contains("Exit status: killed by signal TERM\n"))
        failed.signal = nil
        #expect(failed.block().contains("did not finish"))
    }

    @Test func nonASCIISubjectIsEncodedFoldedAndDecodesToTheSame() throws {
        let subject = "essh: df -h auf Größe-Server 日本語のサーバー名がとても長いのでヘッダーを折り返す必要があります ✓"
        let composed = try mail(subject: subject).compose()
        let parsed = try MailInspector.parse(composed.bytes)
        #expect(parsed.defects.isEmpty)
        #expect(parsed.asciiHeaders)
        #expect(parsed.header("Subject") == subject)
        let raw = try #require(parsed.rawHeaders.first { $0[0] == "Subject" }?[1])
        #expect(raw.contains("\n "))  // folded over several lines
        let lines = subjectLines(composed.bytes)
        #expect(lines.count > 1 && lines[0].hasPrefix("Subject: =?UTF-8?B?"))
        for line in lines { #expect(line.utf8.count <= 76, "\(line)") }
        #expect(EncodedWord.decode(raw) == subject)
    }

    /// The physical lines of the message's header block, as sendmail and readers see them.
    func headerLines(_ bytes: [UInt8]) -> [String] {
        String(decoding: bytes, as: UTF8.self).components(separatedBy: "\n\n")[0].components(separatedBy: "\n")
    }

    /// The Subject header's physical lines: its first and the folded ones after it.
    func subjectLines(_ bytes: [UInt8]) -> [String] {
        let lines = headerLines(bytes)
        guard let start = lines.firstIndex(where: { $0.hasPrefix("Subject: ") }) else { return [] }
        return [lines[start]] + lines[(start + 1)...].prefix { $0.hasPrefix(" ") }
    }

    @Test func aWordTooLongToFoldIsEncodedSoNoHeaderLineIsTooLong() throws {
        let subject = "essh: cat " + String(repeating: "x", count: 1200) + " on web1"
        let composed = try mail(subject: subject).compose()
        for line in headerLines(composed.bytes) { #expect(line.utf8.count <= 78, "\(line.prefix(40))… \(line.utf8.count)") }
        let parsed = try MailInspector.parse(composed.bytes)
        #expect(parsed.defects.isEmpty)
        #expect(parsed.header("Subject") == subject)
    }

    @Test func encodedWordsAreCutBetweenScalarsNotOnlyBetweenCharacters() throws {
        // One character of 81 bytes: é and 40 combining acute accents.
        let subject = "é" + String(repeating: "\u{0301}", count: 40) + " ok"
        let composed = try mail(subject: subject).compose()
        let lines = subjectLines(composed.bytes)
        #expect(lines.count > 1)
        for line in lines {
            #expect(line.utf8.count <= 76, "\(line)")
            for word in line.split(separator: " ") where word.hasPrefix("=?") { #expect(word.utf8.count <= 75) }
        }
        let parsed = try MailInspector.parse(composed.bytes)
        #expect(parsed.defects.isEmpty)
        #expect(parsed.header("Subject") == subject)
    }

    @Test func longASCIISubjectIsFoldedAtSpaces() throws {
        let subject = (1...30).map { "word\($0)" }.joined(separator: " ")
        let header = EncodedWord.header("Subject", subject)
        #expect(header.contains("\n "))
        for line in header.split(separator: "\n") { #expect(line.utf8.count <= 78) }
        #expect(try MailInspector.parse(Array((header + "\n\nx\n").utf8)).header("Subject") == subject)
    }

    @Test func manyRecipientsStayOnOnePhysicalToLine() throws {
        // sendmail -t (dma) reads recipients from the first physical line of To only.
        let to = (1...12).map { "recipient\($0)@example.org" }
        var m = mail()
        m.to = to
        let composed = try m.compose()
        let head = String(decoding: composed.bytes, as: UTF8.self).components(separatedBy: "\n\n")[0]
        let lines = head.split(separator: "\n").map(String.init)
        let toLine = try #require(lines.first { $0.hasPrefix("To: ") })
        #expect(toLine == "To: " + to.joined(separator: ", "))
        #expect(toLine.utf8.count > 78)
        let next = try #require(lines.firstIndex(of: toLine)).advanced(by: 1)
        #expect(!lines[next].hasPrefix(" ") && !lines[next].hasPrefix("\t"))
        #expect(try MailInspector.parse(composed.bytes).header("To") == to.joined(separator: ", "))
    }

    @Test func bareLocalNamesAreQualifiedWithThisHostInTheHeaders() throws {
        var m = mail()
        m.from = "ops"
        m.to = ["root", "a@example.org"]
        let composed = try m.compose()
        let parsed = try MailInspector.parse(composed.bytes)
        let host = LocalIdentity.hostname
        #expect(parsed.header("From") == "ops@\(host)")
        #expect(parsed.header("To") == "root@\(host), a@example.org")
        #expect(composed.messageID.hasSuffix("@\(host)>"))
    }

    @Test func aToListTooLongForOneHeaderLineIsRefused() {
        var m = mail()
        m.to = (1...60).map { "recipient\($0)@example.org" }
        let error = #expect(throws: MailError.self) { _ = try m.compose() }
        #expect(error?.kind == .invalidAddress)
        #expect(error?.message.contains("holds at most 990") == true)
    }

    @Test func textThatLooksLikeAnEncodedWordIsEncodedToo() throws {
        let subject = "literally =?UTF-8?B?SGk=?= here"
        #expect(EncodedWord.decode(String(EncodedWord.header("Subject", subject).dropFirst(9))) == subject)
    }

    @Test func nonASCIIAndInvalidUTF8OutputSurvivesAsText() throws {
        var output = Array("Grüße 日本 ✓\n".utf8)
        output += [0x66, 0xFF, 0xFE, 0x6F, 0x0A]  // invalid UTF-8 in the middle of a line
        output += Array(String(repeating: "x=y ", count: 60).utf8) + [0x0A]  // a long line with "=" signs
        var m = mail()
        m.output = output
        let composed = try m.compose()
        let parsed = try MailInspector.parse(composed.bytes)
        #expect(parsed.longestLine <= 76 + 2)
        let text = try #require(parsed.parts.first?.text)
        #expect(text.hasSuffix("Grüße 日本 ✓\nf\u{FFFD}\u{FFFD}o\n" + String(repeating: "x=y ", count: 60) + "\n"))
    }

    @Test func outputWithoutFinalNewlineGetsNone() throws {
        var m = mail()
        m.report = nil
        m.output = Array("no newline".utf8)
        #expect(try MailInspector.parse(try m.compose().bytes).parts.first?.text == "no newline")
    }

    @Test func outputAboveTheLimitIsAttached() throws {
        let big = (1...200).map { "line \($0) with ümlaut\n" }.joined()
        let composed = try mail(output: big, maxInline: 1000).compose()
        #expect(composed.attached)
        let parsed = try MailInspector.parse(composed.bytes)
        #expect(parsed.defects.isEmpty)
        #expect(parsed.header("Content-Type")?.hasPrefix("multipart/mixed") == true)
        #expect(parsed.parts.count == 2)
        #expect(parsed.parts[0].text?.hasPrefix("Server:      web1\n") == true)
        #expect(parsed.parts[0].text?.contains("attached as essh-output.txt") == true)
        #expect(parsed.parts[1].filename == "essh-output.txt")
        #expect(parsed.parts[1].contentType == "text/plain")
        #expect(parsed.parts[1].text == big)
        #expect(parsed.longestLine <= 78)
    }

    @Test func outputAtTheLimitStaysInline() throws {
        let composed = try mail(output: String(repeating: "a", count: 1000), maxInline: 1000).compose()
        #expect(!composed.attached)
    }

    @Test(arguments: [
        ("Subject", "hi\r\nBcc: victim@example.org"),
        ("Subject", "hi\nBcc: victim@example.org"),
        ("Subject", "tab\there"),
        ("Subject", "next line\u{85}x"),
        ("Subject", "separator\u{2028}x"),
        ("To", "a@example.org\nBcc: victim@example.org"),
        ("From", "me@example.org\r"),
    ])
    func controlCharactersInHeadersAreRefused(field: String, value: String) throws {
        var m = mail()
        switch field {
        case "Subject": m.subject = value
        case "To": m.to = [value]
        default: m.from = value
        }
        let error = #expect(throws: MailError.self) { _ = try m.compose() }
        #expect(error?.kind == .headerInjection)
        #expect(error?.message.contains("The \(field) field contains") == true)
    }

    @Test func defaultSubjectNamesCommandAndServerOnOneLine() {
        var r = report
        r.command = "printf 'a\\n'\tls"
        #expect(r.defaultSubject == "essh: printf 'a\\n' ls on web1")
    }

    /// A server name holding a control character (saved before names were checked) still makes a mail that can be
    /// built and sent: the default Subject is cleaned, not refused (issue 13 §8).
    @Test func aServerNameWithAControlCharacterMakesAOneLineSubject() throws {
        var r = report
        r.server = "web\u{1B}]0;x\u{07}\n1"
        #expect(r.defaultSubject == "essh: \(r.command) on web ]0;x  1")
        let mail = OutputMail(from: "essh@example.org", to: ["ops@example.org"], subject: r.defaultSubject,
                              report: r, output: Array("out\n".utf8), maxInline: 1 << 20)
        #expect(throws: Never.self) { _ = try mail.compose() }
    }
}
