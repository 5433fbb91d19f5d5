/// Reads Windows `netstat -an`, `-ano` and `-anob`: `Proto Local Foreign [State] [PID]`; with `-b` a `[name.exe]`
/// line after a row names its program.
struct WindowsNetstatParser {
    let text: ByteText

    func parse() -> ParseResult<Socket> {
        var items: [Socket] = []
        var warnings: [String] = []
        var hasPID = false
        var lineNumber = 0
        text.forEachLine { line in
            lineNumber += 1
            let trimmed = text.trimmed(line)
            if trimmed.isEmpty || text.hasPrefix(trimmed, "Active Connections") { return true }
            let t = text.tokens(trimmed)
            if text.equals(t[0], "Proto") {
                hasPID = text.find("PID", in: trimmed) != nil
                return true
            }
            if text[trimmed.lowerBound] == UInt8(ascii: "["), text.hasSuffix(trimmed, "]"), !items.isEmpty {
                items[items.count - 1].program = text.string((trimmed.lowerBound + 1)..<(trimmed.upperBound - 1))
                return true
            }
            guard t.count >= 3, text.equals(t[0], "TCP") || text.equals(t[0], "UDP") else {
                // `-b` adds service names and "Can not obtain ownership information" lines.
                if items.isEmpty { warnings.append("line \(lineNumber): not a netstat socket row, skipped") }
                return true
            }
            var socket = Socket(proto: text.lowercasedString(t[0]), local: text.string(t[1]),
                                remote: text.string(t[2]), state: nil, pid: nil, program: nil)
            var k = 3
            if k < t.count && !(hasPID && t.count == 4 && text.int(t[k]) != nil) {
                socket.stateRaw = text.string(t[k])
                k += 1
            }
            if hasPID && k < t.count { socket.pid = text.int(t[k]) }
            items.append(socket)
            return true
        }
        return ParseResult(items: items, format: .netstatWindows, warnings: warnings)
    }
}
