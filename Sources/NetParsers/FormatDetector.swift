/// Picks the layout of a text from marks each layout has near its top (titles, headers, the shape of the
/// first record). Only the first lines are looked at, so detection costs the same for any input size.
struct FormatDetector {
    let text: ByteText
    private static let linesToScan = 200

    /// The first candidate whose marks are found, in the candidates' order.
    func detect(among candidates: [InputFormat]) -> InputFormat? {
        var marks = Set<InputFormat>()
        var firstByte: UInt8?
        var scanned = 0
        text.forEachLine { line in
            scanned += 1
            let trimmed = text.trimmed(line)
            guard !trimmed.isEmpty else { return scanned < Self.linesToScan }
            if firstByte == nil { firstByte = text[trimmed.lowerBound] }
            note(line: line, trimmed: trimmed, into: &marks)
            return scanned < Self.linesToScan
        }
        if firstByte == UInt8(ascii: "[") || firstByte == UInt8(ascii: "{") { marks.insert(.ipAddrJSON) }
        return candidates.first { marks.contains($0) }
    }

    private func note(line: Range<Int>, trimmed: Range<Int>, into marks: inout Set<InputFormat>) {
        let indented = isSpace(text[line.lowerBound])
        // Interfaces.
        if !indented, text.find("Link encap:", in: line) != nil { marks.insert(.ifconfigLinuxOld) }
        if !indented, let flags = text.find(": flags=", in: line) {
            let linux = text.find(">  mtu ", in: flags..<line.upperBound) != nil
            marks.insert(linux ? .ifconfigLinux : .ifconfigBSD)
            // Each ifconfig parser reads both flag layouts; either mark selects it.
            marks.insert(linux ? .ifconfigBSD : .ifconfigLinux)
        }
        if !indented && isDigit(text[line.lowerBound]) {
            let t = text.tokens(line, max: 4)
            if t.count >= 3 && text.hasSuffix(t[0], ":") {
                if text.hasSuffix(t[1], ":") && text[t[2].lowerBound] == UInt8(ascii: "<") {
                    marks.insert(.ipAddr)
                } else if text.equals(t[2], "inet") || text.equals(t[2], "inet6") {
                    marks.insert(.ipAddrOneLine)
                }
            }
        }
        if text.hasPrefix(trimmed, "Windows IP Configuration")
            || (!indented && text.find(" adapter ", in: trimmed) != nil && text.hasSuffix(trimmed, ":")) {
            marks.insert(.ipconfig)
        }
        // Routes.
        if text.hasPrefix(trimmed, "Kernel IPv6 routing table") { marks.insert(.routeLinux6) }
        if text.hasPrefix(trimmed, "Kernel IP routing table") {
            marks.insert(.routeLinux)
            marks.insert(.netstatRoutesLinux)
        }
        if text.hasPrefix(trimmed, "Destination") && text.find("Genmask", in: trimmed) != nil {
            marks.insert(text.find("MSS", in: trimmed) != nil ? .netstatRoutesLinux : .routeLinux)
        }
        if text.hasPrefix(trimmed, "Destination") && text.find("Next Hop", in: trimmed) != nil {
            marks.insert(.routeLinux6)
        }
        if text.equals(trimmed, "Routing tables") || text.equals(trimmed, "Internet:")
            || text.equals(trimmed, "Internet6:") {
            marks.insert(.netstatRoutesBSD)
        }
        if text.hasPrefix(trimmed, "IPv4 Route Table") || text.hasPrefix(trimmed, "IPv6 Route Table")
            || text.hasPrefix(trimmed, "Interface List") {
            marks.insert(.routePrint)
        }
        if !indented {
            let t = text.tokens(trimmed, max: 3)
            if t.count >= 2 {
                var k = 0
                if text.equals(t[0], "unreachable") || text.equals(t[0], "local") || text.equals(t[0], "broadcast")
                    || text.equals(t[0], "blackhole") || text.equals(t[0], "prohibit") || text.equals(t[0], "multicast")
                    || text.equals(t[0], "throw") || text.equals(t[0], "unicast") || text.equals(t[0], "anycast") {
                    k = 1
                }
                let dest = text.splitCIDR(t[k]).address
                if text.equals(dest, "default") || text.isIPv4(dest) || text.isIPv6(dest) {
                    if text.find(" dev ", in: trimmed) != nil || text.find(" via ", in: trimmed) != nil {
                        marks.insert(.ipRoute)
                    }
                }
            }
        }
        // Sockets.
        if text.hasPrefix(trimmed, "Netid") && text.find("Recv-Q", in: trimmed) != nil { marks.insert(.ss) }
        if text.hasPrefix(trimmed, "State") && text.find("Recv-Q", in: trimmed) != nil { marks.insert(.ss) }
        if text.hasPrefix(trimmed, "Active Connections") { marks.insert(.netstatWindows) }
        if text.hasPrefix(trimmed, "Proto") && text.find("Local Address", in: trimmed) != nil {
            if text.find("Recv-Q", in: trimmed) == nil {
                marks.insert(.netstatWindows)
            } else if text.find("(state)", in: trimmed) != nil {
                marks.insert(.netstatBSD)
            } else {
                marks.insert(.netstatLinux)
            }
        }
        if text.hasPrefix(trimmed, "tcp4") || text.hasPrefix(trimmed, "udp4") || text.hasPrefix(trimmed, "tcp46") {
            marks.insert(.netstatBSD)
        }
    }
}
