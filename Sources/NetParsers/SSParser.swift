/// Reads `ss -tuna` / `-tulpn` (and `ss -a`): `[Netid] State Recv-Q Send-Q Local:Port Peer:Port [Process]`.
/// Rows of UNIX, netlink and packet sockets (`u_str`, `nl`, `p_raw`, …) are outside the socket model and skipped.
struct SSParser {
    let text: ByteText

    private static let internetNetids: [StaticString] = ["tcp", "udp", "raw", "sctp", "dccp", "mptcp", "icmp6"]

    func parse() -> ParseResult<Socket> {
        var items: [Socket] = []
        var warnings: [String] = []
        var hasNetid = true
        var lineNumber = 0
        text.forEachLine { line in
            lineNumber += 1
            let trimmed = text.trimmed(line)
            if trimmed.isEmpty { return true }
            let t = text.tokens(trimmed)
            if text.equals(t[0], "Netid") { hasNetid = true; return true }
            if text.equals(t[0], "State") && t.count > 1 && text.equals(t[1], "Recv-Q") {
                hasNetid = false
                return true
            }
            let base = hasNetid ? 1 : 0
            var proto: String?
            if hasNetid {
                guard Self.internetNetids.contains(where: { text.equals(t[0], $0) }) else {
                    if !isKnownOtherNetid(t[0]) {
                        warnings.append("line \(lineNumber): not an ss socket row, skipped")
                    }
                    return true
                }
                proto = text.string(t[0])
            }
            guard t.count >= base + 5, text.int(t[base + 1]) != nil, text.int(t[base + 2]) != nil else {
                warnings.append("line \(lineNumber): not an ss socket row, skipped")
                return true
            }
            var socket = Socket(proto: proto, local: text.colonEndpoint(t[base + 3]),
                                remote: text.colonEndpoint(t[base + 4]), state: text.string(t[base]),
                                pid: nil, program: nil)
            if t.count > base + 5, let users = text.find("users:((\"", in: t[base + 5].lowerBound..<trimmed.upperBound) {
                readProcess(users..<trimmed.upperBound, into: &socket)
            }
            items.append(socket)
            return true
        }
        return ParseResult(items: items, format: .ss, warnings: warnings)
    }

    /// `u_str`, `nl`, `p_raw`, `v_str`, `x_…`, `tipc`, `xdp`: sockets ss lists that are not Internet sockets.
    private func isKnownOtherNetid(_ r: Range<Int>) -> Bool {
        text.equals(r, "nl") || text.equals(r, "tipc") || text.equals(r, "xdp")
            || (r.count > 2 && text[r.lowerBound + 1] == UInt8(ascii: "_"))
    }

    /// `users:(("sshd",pid=123,fd=3),…)`: the first process's name and pid.
    private func readProcess(_ r: Range<Int>, into socket: inout Socket) {
        let nameStart = r.lowerBound + 9
        guard nameStart <= r.upperBound,
              let quote = text.firstIndex(of: UInt8(ascii: "\""), in: nameStart..<r.upperBound) else { return }
        socket.program = text.string(nameStart..<quote)
        if let pidAt = text.find("pid=", in: quote..<r.upperBound) {
            socket.pid = text.leadingInt((pidAt + 4)..<r.upperBound)
        }
    }
}
