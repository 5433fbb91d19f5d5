import Foundation

/// What a person wrote for each algorithm list, in OpenSSH's syntax: a comma list replaces eSSH's defaults, a
/// leading `+` appends to them, `-` removes from them, `^` puts first (`+aes128-cbc`,
/// `-chacha20-poly1305@openssh.com`).
/// Nil leaves a list as it is. A saved server's fields (for an old device) hold one and the command line's options
/// another; Operations' `AlgorithmSelection` turns defaults, fields and options into the lists offered.
public struct AlgorithmChoices: Sendable, Equatable, Hashable, Codable {
    /// `KexAlgorithms`.
    public var kex: String?
    /// `HostKeyAlgorithms`.
    public var hostKeys: String?
    /// `Ciphers`.
    public var ciphers: String?
    /// `MACs`.
    public var macs: String?

    /// Choices; nil (or empty) leaves a list as it is.
    public init(kex: String? = nil, hostKeys: String? = nil, ciphers: String? = nil, macs: String? = nil) {
        self.kex = Self.clean(kex)
        self.hostKeys = Self.clean(hostKeys)
        self.ciphers = Self.clean(ciphers)
        self.macs = Self.clean(macs)
    }

    /// True when no list is changed.
    public var isEmpty: Bool { self == AlgorithmChoices() }

    /// The choices as OpenSSH config lines (`Ciphers +aes128-cbc`), for export and display, in OpenSSH's keyword
    /// order.
    public var configLines: [(keyword: String, value: String)] {
        [("KexAlgorithms", kex), ("HostKeyAlgorithms", hostKeys), ("Ciphers", ciphers), ("MACs", macs)]
            .compactMap { keyword, value in value.map { (keyword, $0) } }
    }

    /// Empty text means no choice, so a form's empty field and a missing column mean the same.
    static func clean(_ text: String?) -> String? {
        guard let text = text?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
        return text
    }

    /// The first rule a choice breaks that can be seen without knowing the algorithms: one word (no spaces), no
    /// empty names, something after `+`, `-` or `^`. Nil when the text may be saved. Whether each name is an
    /// algorithm eSSH supports is Operations' check (it knows SSH).
    public static func syntaxProblem(_ text: String) -> String? {
        if text.contains(where: { $0.isWhitespace || $0.isNewline }) {
            return "'\(text)' contains a space: write the algorithms separated by commas only."
        }
        let body = "+-^".contains(text.first ?? " ") ? text.dropFirst() : text[...]
        if body.isEmpty || body.split(separator: ",", omittingEmptySubsequences: false).contains(where: \.isEmpty) {
            return "'\(text)' has an empty algorithm name: write names separated by single commas."
        }
        return nil
    }
}
