/// Reads OpenSSH's forward specifications (ssh(1) -L, -R, -D) into `ForwardSpec`s, or says what is wrong with one.
/// Pure: no names are resolved.
public enum ForwardSpecParser {
    /// `text` as the value of `-L`, `-R` or `-D`.
    public static func parse(_ kind: ForwardSpec.Kind, _ text: String) throws(ForwardError) -> ForwardSpec {
        let option = "-\(kind.rawValue) \(text)"
        func bad(_ why: String) -> ForwardError { ForwardError(.badSpec, "\(option): \(why)") }
        if text.isEmpty { throw bad("give " + usage(kind) + ".") }
        if text.contains(where: { $0 == " " || $0 == "\t" || $0.isNewline }) {
            throw bad("a forward has no blanks; write " + usage(kind) + ".")
        }
        if text.contains("/") && !text.contains("[") {
            throw bad("Unix socket paths are not supported; forward TCP ports (" + usage(kind) + ").")
        }
        let fields = try split(text, option: option)
        switch kind {
        case .dynamic:
            guard fields.count <= 2 else {
                throw bad("-D takes [bind:]port (a SOCKS proxy needs no target); did you mean -L?")
            }
            let bind = fields.count == 2 ? fields[0] : nil
            return ForwardSpec(kind: kind, bindAddress: try bindAddress(bind, option: option),
                               bindPort: try port(fields.last ?? "", what: "the port to listen on", zero: true,
                                                  option: option))
        case .local, .remote:
            if fields.count == 1 || fields.count == 2 {
                if kind == .remote {
                    throw bad("remote SOCKS forwarding (-R [bind:]port alone) is not supported; give "
                              + usage(kind) + ".")
                }
                throw bad("a target is missing; give " + usage(kind) + " (or -D \(text) for a SOCKS proxy).")
            }
            guard fields.count <= 4 else { throw bad("too many fields; give " + usage(kind) + ".") }
            let bind = fields.count == 4 ? fields[0] : nil
            let rest = fields.suffix(3).map { $0 }
            let host = rest[1]
            if host.isEmpty { throw bad("the target host is empty; give " + usage(kind) + ".") }
            if host == "*" { throw bad("the target must be one host, not *.") }
            return ForwardSpec(kind: kind, bindAddress: try bindAddress(bind, option: option),
                               bindPort: try port(rest[0], what: "the port to listen on", zero: true, option: option),
                               host: host,
                               hostPort: try port(rest[2], what: "the target's port", zero: false, option: option))
        }
    }

    /// How `kind` is written, for messages.
    static func usage(_ kind: ForwardSpec.Kind) -> String {
        kind == .dynamic ? "-D [bind:]port" : "-\(kind.rawValue) [bind:]port:host:hostport"
    }

    /// Splits at colons outside brackets; a bracketed field loses its brackets.
    static func split(_ text: String, option: String) throws(ForwardError) -> [String] {
        var fields: [String] = []
        var current = ""
        var inBrackets = false
        var bracketed = false
        for character in text {
            switch character {
            case "[":
                guard !inBrackets, current.isEmpty else {
                    throw ForwardError(.badSpec, "\(option): a “[” in the middle of a field; IPv6 addresses go "
                                       + "whole in brackets, as [::1].")
                }
                inBrackets = true
                bracketed = true
            case "]":
                guard inBrackets else { throw ForwardError(.badSpec, "\(option): a “]” without its “[”.") }
                inBrackets = false
            case ":" where !inBrackets:
                fields.append(current)
                current = ""
                bracketed = false
            default:
                if bracketed && !inBrackets {
                    throw ForwardError(.badSpec, "\(option): after “]” comes “:” and a port.")
                }
                current.append(character)
            }
        }
        if inBrackets { throw ForwardError(.badSpec, "\(option): a “[” without its “]”.") }
        fields.append(current)
        return fields
    }

    private static func bindAddress(_ field: String?, option: String) throws(ForwardError) -> String? {
        guard let field else { return nil }
        return field == "*" ? "" : field
    }

    static func port(_ field: String, what: String, zero: Bool, option: String) throws(ForwardError) -> Int {
        guard !field.isEmpty else { throw ForwardError(.badSpec, "\(option): \(what) is missing.") }
        guard field.allSatisfy(\.isASCII), field.allSatisfy(\.isNumber), let value = Int(field), value <= 65535,
              value > 0 || zero
        else {
            let range = zero ? "0 (any free port) to 65535" : "1 to 65535"
            throw ForwardError(.badSpec, "\(option): \(what) “\(field)” is not a port (a number from \(range)).")
        }
        return value
    }
}

extension ForwardSpecParser {
    /// `host:port` (`[v6]:port`) as `essh proxy --to` and `-W` take it.
    public static func target(_ text: String, option: String = "--to") throws(ForwardError) -> (host: String, port: Int) {
        let given = "\(option) \(text)"
        let fields = try split(text, option: given)
        guard fields.count == 2, !fields[0].isEmpty else {
            throw ForwardError(.badSpec, "\(given): give host:port (an IPv6 address in brackets: [fd00::5]:22).")
        }
        return (fields[0], try port(fields[1], what: "the port", zero: false, option: given))
    }
}
