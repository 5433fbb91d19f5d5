import Foundation

/// Recipient and sender addresses: `local@domain` (RFC 5322 dot-atom) or a bare local user name, which the local
/// MTA delivers on this machine. Display names and quoted local parts are not accepted: they are rarely typed,
/// and refusing them keeps every address safe to put in a header as it is.
public enum MailAddress {
    /// The longest address list (addresses joined by ", ") a To line may hold. To is never folded: `sendmail -t`
    /// (dma) reads recipients from the header's first physical line only, so a folded To loses recipients; and a
    /// header line may be at most 998 bytes (RFC 5322 2.1.1), "To: " included.
    public static let maxListLength = 990

    /// The addresses in `list`, split at commas (spaces around them ignored). Throws `headerInjection` for control
    /// characters, `invalidAddress` for an empty list or any address that is not valid, naming it.
    public static func parseList(_ list: String, field: String = "To") throws(MailError) -> [String] {
        try HeaderSafety.check(list, field: field)
        let parts = list.split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        let addresses = parts.filter { !$0.isEmpty }
        if addresses.isEmpty {
            throw MailError(.invalidAddress, "", "Give at least one address in \(field), e.g. ops@example.org.")
        }
        for address in addresses { try validate(address, field: field) }
        try checkLength(addresses.map { qualified($0) }, field: field)
        return addresses
    }

    /// `address` as a header shows it: a bare local user name gets `@domain` (this machine's name), so the reader
    /// sees where it came from and a reply goes back here. Left bare when the host name is no valid domain.
    public static func qualified(_ address: String, domain: String = LocalIdentity.hostname) -> String {
        guard !address.contains("@") else { return address }
        let full = address + "@" + domain
        return problem(full) == nil ? full : address
    }

    /// Throws `invalidAddress` when `addresses` (as qualified for the header), written on one header line, would be
    /// longer than `maxListLength`.
    public static func checkLength(_ addresses: [String], field: String = "To") throws(MailError) {
        let length = addresses.joined(separator: ", ").utf8.count
        guard length > maxListLength else { return }
        throw MailError(.invalidAddress, "", """
            The \(field) list is \(length) characters long; a mail header line holds at most \(maxListLength). \
            Send to fewer addresses at once, or to a list or alias that reaches them all.
            """)
    }

    /// Throws unless `address` is `local@domain` or a local user name.
    public static func validate(_ address: String, field: String = "To") throws(MailError) {
        try HeaderSafety.check(address, field: field)
        if let reason = problem(address) {
            throw MailError(.invalidAddress, "", """
                “\(address)” in \(field) is not a mail address: \(reason). \
                Give addresses like ops@example.org (or a local user name), separated by commas.
                """)
        }
    }

    static func problem(_ address: String) -> String? {
        if address.isEmpty { return "it is empty" }
        if address.utf8.count > 254 { return "it is longer than 254 characters" }
        if address.hasPrefix("-") { return "it starts with a dash" }
        // Legal in a dot-atom, but a reader would decode `=?UTF-8?B?…?=` in To or From as other text.
        if address.contains("=?") { return "it contains “=?”, which mail programs would read as encoded text" }
        let pieces = address.split(separator: "@", omittingEmptySubsequences: false)
        if pieces.count > 2 { return "it has more than one @" }
        if let reason = dotAtomProblem(pieces[0], allowed: isAtomCharacter) {
            return "the part before @ " + reason
        }
        if pieces.count == 2 {
            let domain = pieces[1]
            if domain.isEmpty { return "nothing follows the @" }
            if domain.hasPrefix("[") && domain.hasSuffix("]") {
                let inner = domain.dropFirst().dropLast()
                if inner.isEmpty || !inner.unicodeScalars.allSatisfy({ isAlnum($0) || ".:".unicodeScalars.contains($0) }) {
                    return "the address literal after @ is not an IP address"
                }
                return nil
            }
            if let reason = dotAtomProblem(domain, allowed: { isAlnum($0) || $0 == "-" }) {
                return "the domain " + reason
            }
            for label in domain.split(separator: ".") where label.hasPrefix("-") || label.hasSuffix("-") {
                return "a domain label starts or ends with a dash"
            }
        }
        return nil
    }

    private static func dotAtomProblem(_ text: Substring, allowed: (Unicode.Scalar) -> Bool) -> String? {
        if text.isEmpty { return "is empty" }
        if text.hasPrefix(".") || text.hasSuffix(".") || text.contains("..") {
            return "has a dot at its start or end, or two dots in a row"
        }
        if let bad = text.unicodeScalars.first(where: { $0 != "." && !allowed($0) }) {
            return bad == " " ? "contains a space" : "contains “\(bad)”, which addresses cannot hold"
        }
        return nil
    }

    private static func isAlnum(_ s: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(s) || ("A"..."Z").contains(s) || ("0"..."9").contains(s)
    }

    private static func isAtomCharacter(_ s: Unicode.Scalar) -> Bool {
        isAlnum(s) || "!#$%&'*+/=?^_`{|}~-".unicodeScalars.contains(s)
    }
}
