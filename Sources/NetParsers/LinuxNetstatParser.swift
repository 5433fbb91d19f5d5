/// Reads Linux `netstat -tuna` / `-tulpn` (and `-an`): rows under `Active Internet connections`, columns
/// `Proto Recv-Q Send-Q Local Foreign [State] [PID/Program name]`. UNIX-domain sections are not Internet sockets.
struct LinuxNetstatParser {
    let text: ByteText

    func parse() -> ParseResult<Socket> {
        var items: [Socket] = []
        var warnings: [String] = []
        var inInternet = true
        var hasPID = false
        var lineNumber = 0
        text.forEachLine { line in
            lineNumber += 1
            let trimmed = text.trimmed(line)
            if trimmed.isEmpty { return true }
            if text.hasPrefix(trimmed, "Active ") {
                inInternet = text.find("Internet", in: trimmed) != nil
                return true
            }
            guard inInternet else { return true }
            if text.hasPrefix(trimmed, "Proto") {
                hasPID = text.find("PID/Program", in: trimmed) != nil
                return true
            }
            let t = text.tokens(trimmed)
            guard t.count >= 5, text.int(t[1]) != nil, text.int(t[2]) != nil else {
                warnings.append("line \(lineNumber): not a netstat socket row, skipped")
                return true
            }
            var socket = Socket(proto: text.lowercasedString(t[0]), local: text.colonEndpoint(t[3]),
                                remote: text.colonEndpoint(t[4]), state: nil, pid: nil, program: nil)
            var k = 5
            let remaining = t.count - k
            // UDP rows have no state: with a PID column, one remaining token is the PID/program.
            if remaining >= 2 || (remaining == 1 && !(hasPID && looksLikeProcess(t[k]))) {
                socket.stateRaw = text.string(t[k])
                k += 1
            }
            if hasPID && k < t.count {
                let process = text.trimmed(t[k].lowerBound..<trimmed.upperBound)
                if let slash = text.firstIndex(of: UInt8(ascii: "/"), in: process) {
                    socket.pid = text.int(process.lowerBound..<slash)
                    let program = text.trimmed((slash + 1)..<process.upperBound)
                    if !program.isEmpty { socket.program = text.string(program) }
                }
            }
            items.append(socket)
            return true
        }
        return ParseResult(items: items, format: .netstatLinux, warnings: warnings)
    }

    private func looksLikeProcess(_ r: Range<Int>) -> Bool {
        text.equals(r, "-") || (isDigit(text[r.lowerBound]) && text.firstIndex(of: UInt8(ascii: "/"), in: r) != nil)
    }
}
