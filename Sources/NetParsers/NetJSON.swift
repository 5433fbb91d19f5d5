/// Writes the JSON contract (`{"interfaces":[…]}`, `{"routes":[…]}`, `{"sockets":[…]}`): keys always present in
/// a fixed order, null where unknown, one item per line. Written by hand because it is on the hot path of
/// `essh parse --json` and Foundation's encoder would drop nil keys.
public enum NetJSON {
    /// The interfaces document as UTF-8 bytes, ending with a newline.
    public static func encode(interfaces: [Interface]) -> [UInt8] {
        var w = Writer()
        w.document("interfaces", interfaces) { w, i in
            w.raw("{\"name\":"); w.string(i.name)
            w.raw(",\"state\":"); w.optionalString(i.state?.rawValue)
            w.raw(",\"mtu\":"); w.optionalInt(i.mtu)
            w.raw(",\"mac\":"); w.optionalString(i.mac)
            w.raw(",\"ipv4\":[")
            for (n, a) in i.ipv4.enumerated() {
                if n > 0 { w.raw(",") }
                w.raw("{\"address\":"); w.string(a.address)
                w.raw(",\"prefix\":"); w.optionalInt(a.prefix)
                w.raw(",\"broadcast\":"); w.optionalString(a.broadcast)
                w.raw(",\"scope\":"); w.optionalString(a.scope); w.raw("}")
            }
            w.raw("],\"ipv6\":[")
            for (n, a) in i.ipv6.enumerated() {
                if n > 0 { w.raw(",") }
                w.raw("{\"address\":"); w.string(a.address)
                w.raw(",\"prefix\":"); w.optionalInt(a.prefix)
                w.raw(",\"scope\":"); w.optionalString(a.scope); w.raw("}")
            }
            w.raw("],\"rx_bytes\":"); w.optionalInt(i.rxBytes)
            w.raw(",\"tx_bytes\":"); w.optionalInt(i.txBytes)
            w.raw("}")
        }
        return w.out
    }

    /// The routes document as UTF-8 bytes, ending with a newline.
    public static func encode(routes: [Route]) -> [UInt8] {
        var w = Writer()
        w.document("routes", routes) { w, r in
            w.raw("{\"destination\":"); w.string(r.destination)
            w.raw(",\"gateway\":"); w.optionalString(r.gateway)
            w.raw(",\"interface\":"); w.optionalString(r.interface)
            w.raw(",\"metric\":"); w.optionalInt(r.metric)
            w.raw(",\"flags\":"); w.optionalString(r.flags)
            w.raw(",\"src\":"); w.optionalString(r.src)
            w.raw(",\"proto\":"); w.optionalString(r.proto)
            w.raw(",\"scope\":"); w.optionalString(r.scope)
            w.raw("}")
        }
        return w.out
    }

    /// The sockets document as UTF-8 bytes, ending with a newline.
    public static func encode(sockets: [Socket]) -> [UInt8] {
        var w = Writer()
        w.document("sockets", sockets) { w, s in
            w.raw("{\"proto\":"); w.optionalString(s.proto)
            w.raw(",\"proto_raw\":"); w.optionalString(s.protoRaw)
            w.raw(",\"family\":"); w.optionalString(s.family)
            w.raw(",\"local\":"); w.string(s.local)
            w.raw(",\"remote\":"); w.optionalString(s.remote)
            w.raw(",\"state\":"); w.optionalString(s.state)
            w.raw(",\"state_raw\":"); w.optionalString(s.stateRaw)
            w.raw(",\"pid\":"); w.optionalInt(s.pid)
            w.raw(",\"program\":"); w.optionalString(s.program)
            w.raw("}")
        }
        return w.out
    }

    private struct Writer {
        var out: [UInt8] = []

        mutating func document<T>(_ key: StaticString, _ items: [T], _ item: (inout Writer, T) -> Void) {
            out.reserveCapacity(items.count * 160 + 32)
            raw("{\""); raw(key); raw("\":[")
            for (n, value) in items.enumerated() {
                raw(n == 0 ? "\n" : ",\n")
                item(&self, value)
            }
            raw(items.isEmpty ? "]}\n" : "\n]}\n")
        }

        mutating func raw(_ s: StaticString) {
            out.append(contentsOf: UnsafeBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount))
        }

        mutating func optionalInt(_ v: Int?) {
            if let v { int(v) } else { raw("null") }
        }

        mutating func int(_ v: Int) {
            if v < 0 { out.append(UInt8(ascii: "-")) }
            var m = v.magnitude
            var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                         UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
                (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            var n = 0
            withUnsafeMutableBytes(of: &digits) { d in
                repeat {
                    d[n] = UInt8(m % 10) + 0x30
                    m /= 10
                    n += 1
                } while m > 0
                while n > 0 {
                    n -= 1
                    out.append(d[n])
                }
            }
        }

        mutating func optionalString(_ s: String?) {
            if let s { string(s) } else { raw("null") }
        }

        mutating func string(_ s: String) {
            out.append(UInt8(ascii: "\""))
            for c in s.utf8 {
                switch c {
                case UInt8(ascii: "\""): raw("\\\"")
                case UInt8(ascii: "\\"): raw("\\\\")
                case 0x0A: raw("\\n")
                case 0x0D: raw("\\r")
                case 0x09: raw("\\t")
                case 0..<0x20:
                    let hex: StaticString = "0123456789abcdef"
                    raw("\\u00")
                    out.append(hex.utf8Start[Int(c >> 4)])
                    out.append(hex.utf8Start[Int(c & 15)])
                default: out.append(c)
                }
            }
            out.append(UInt8(ascii: "\""))
        }
    }
}
