import Mail
import Testing

@Suite struct MailAddressTests {
    @Test(arguments: ["ops@example.org", "first.last+tag@sub.example.co.uk", "root", "essh-test", "a@[127.0.0.1]"])
    func validAddressesAreAccepted(address: String) throws {
        try MailAddress.validate(address)
    }

    @Test(arguments: [
        ("ops@", "nothing follows the @"), ("@example.org", "is empty"), ("a@b@c", "more than one @"),
        ("two words@example.org", "contains a space"), ("a..b@example.org", "two dots"),
        ("-oQ/tmp@example.org", "starts with a dash"), ("a@-bad.org", "starts or ends with a dash"),
        ("jörg@example.org", "cannot hold"), ("<a@example.org>", "cannot hold"),
        ("=?UTF-8?B?YWRtaW4=?=@example.org", "=?"), ("a=?b@example.org", "encoded text"),
    ])
    func invalidAddressesAreRefusedSayingWhy(address: String, reason: String) {
        let error = #expect(throws: MailError.self) { try MailAddress.validate(address) }
        #expect(error?.kind == .invalidAddress)
        #expect(error?.message.contains(reason) == true, "\(error?.message ?? "")")
        #expect(error?.message.contains("“\(address)”") == true)
    }

    @Test func listsSplitAtCommas() throws {
        #expect(try MailAddress.parseList(" a@example.org, b@example.org ,root") == ["a@example.org", "b@example.org", "root"])
    }

    @Test func aListLongerThanOneHeaderLineIsRefusedSayingWhatToDo() throws {
        let fits = (1...40).map { "r\($0)@example.org" }.joined(separator: ",")
        #expect(try MailAddress.parseList(fits).count == 40)
        let tooLong = (1...70).map { "r\($0)@example.org" }.joined(separator: ",")
        let error = #expect(throws: MailError.self) { _ = try MailAddress.parseList(tooLong) }
        #expect(error?.kind == .invalidAddress)
        #expect(error?.message.contains("Send to fewer addresses") == true, "\(error?.message ?? "")")
    }

    @Test func emptyListIsRefused() {
        let error = #expect(throws: MailError.self) { try MailAddress.parseList(" , ") }
        #expect(error?.kind == .invalidAddress)
    }

    @Test func listWithALineBreakIsAnInjection() {
        let error = #expect(throws: MailError.self) { try MailAddress.parseList("a@example.org\r\nBcc: b@example.org") }
        #expect(error?.kind == .headerInjection)
    }
}
