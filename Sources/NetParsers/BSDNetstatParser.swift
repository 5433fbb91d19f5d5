/// Reads FreeBSD and macOS `netstat -an`: rows under `Active Internet connections`, columns
/// `Proto Recv-Q Send-Q Local Foreign [(state)]` with `address.port` endpoints. Other sections are skipped.
struct BSDNetstatParser {
    let text: ByteText

    func parse() -> ParseResult<Socket> {
        var items: [Socket] = []
        var warnings: [String] = []
        var inInternet = true
        var lineNumber = 0
        text.forEachLine { line in
            lineNumber += 1
            let trimmed = text.trimmed(line)
            if trimmed.isEmpty { return true }
            if text.hasPrefix(trimmed, "Active ") || text.hasPrefix(trimmed, "Registered ") {
                inInternet = text.find("Internet", in: trimmed) != nil
                return true
            }
            guard inInternet, !text.hasPrefix(trimmed, "Proto") else { return true }
            let t = text.tokens(trimmed)
            guard t.count >= 5, text.int(t[1]) != nil, text.int(t[2]) != nil else {
                warnings.append("line \(lineNumber): not a netstat socket row, skipped")
                return true
            }
            items.append(Socket(proto: text.lowercasedString(t[0]), local: text.dotEndpoint(t[3]),
                                remote: text.dotEndpoint(t[4]), state: t.count > 5 ? text.string(t[5]) : nil,
                                pid: nil, program: nil))
            return true
        }
        return ParseResult(items: items, format: .netstatBSD, warnings: warnings)
    }
}
