import Basics
import Inventory
import SSH

/// The algorithm lists a connection offers, written once for the command line, the interface and fleet runs:
/// eSSH's defaults, changed by a saved server's fields (`Ciphers`, `KexAlgorithms`, `MACs`, `HostKeyAlgorithms`),
/// then by the command line's options (`--ciphers`/`-c`, `--kex`, `--macs`, `--host-key-algorithms`). Each change is
/// OpenSSH's syntax, applied to the list as it stands: `a,b` replaces it, `+a,b` appends, `-a,b` removes, `^a,b`
/// puts first; `*` and `?` match several names (`-*-cbc`). Every name must be one this libssh2 supports, so a typo
/// is caught before connecting.
public enum AlgorithmSelection {
    /// One written change to a list.
    public enum Change: Sendable, Equatable {
        /// `a,b`: exactly these, in this order.
        case replace([String])
        /// `+a,b`: these after the list.
        case append([String])
        /// `-a,b`: the list without these.
        case remove([String])
        /// `^a,b`: these first, then the rest of the list.
        case prepend([String])

        /// Reads OpenSSH's syntax.
        public init(_ text: String) {
            let body = String(text.dropFirst())
            let names = { (s: String) in s.split(separator: ",").map(String.init) }
            switch text.first {
            case "+": self = .append(names(body))
            case "-": self = .remove(names(body))
            case "^": self = .prepend(names(body))
            default: self = .replace(names(text))
            }
        }

        /// The names (or patterns) the change is about.
        public var patterns: [String] {
            switch self {
            case .replace(let p), .append(let p), .remove(let p), .prepend(let p): return p
            }
        }
    }

    /// The lists for a connection: `defaults`, then `saved` (a saved server's fields; `serverName` names it in a
    /// problem), then `options` (the command line's). Throws the first problem: a name `supported` lacks, a list
    /// left empty, a field that is not a comma list.
    public static func resolve(saved: AlgorithmChoices = AlgorithmChoices(), serverName: String? = nil,
                               options: AlgorithmChoices = AlgorithmChoices(), defaults: Algorithms = .defaults,
                               supported: Algorithms = .supported) throws(AlgorithmProblem) -> Algorithms {
        var result = defaults
        for (choices, source) in [(saved, AlgorithmProblem.Source.savedServer(serverName ?? "")),
                                  (options, .option)] {
            for kind in AlgorithmKind.allCases {
                guard let text = choices[kind] else { continue }
                result[kind] = try apply(text, to: result[kind], kind: kind, source: source, supported: supported)
            }
        }
        return result
    }

    /// Every problem of a server's fields, checked against eSSH's defaults (for `servers add/edit` and the form,
    /// before saving), one per field at most.
    public static func problems(_ saved: AlgorithmChoices, serverName: String,
                                supported: Algorithms = .supported) -> [AlgorithmProblem] {
        AlgorithmKind.allCases.compactMap { kind -> AlgorithmProblem? in
            guard let text = saved[kind] else { return nil }
            do throws(AlgorithmProblem) {
                _ = try apply(text, to: Algorithms.defaults[kind], kind: kind, source: .savedServer(serverName),
                              supported: supported)
                return nil
            } catch {
                return error
            }
        }
    }

    /// `list` changed by `text`. Patterns expand to the supported names they match, in libssh2's order; a name or
    /// pattern that matches nothing supported is refused, in every form (a typo in `-` would otherwise keep what the
    /// person meant to remove).
    public static func apply(_ text: String, to list: [String], kind: AlgorithmKind, source: AlgorithmProblem.Source,
                             supported: Algorithms = .supported) throws(AlgorithmProblem) -> [String] {
        func problem(_ reason: AlgorithmProblem.Reason) -> AlgorithmProblem {
            AlgorithmProblem(kind: kind, text: text, source: source, reason: reason, supported: supported[kind])
        }
        if let syntax = AlgorithmChoices.syntaxProblem(text) { throw problem(.syntax(syntax)) }
        let change = Change(text)
        var named: [String] = []
        for pattern in change.patterns {
            let matched = Algorithms.names(matching: pattern, in: supported[kind])
            if matched.isEmpty { throw problem(.unknown(pattern)) }
            named += matched.filter { !named.contains($0) }
        }
        let result: [String]
        switch change {
        case .replace: result = named
        case .append: result = list + named.filter { !list.contains($0) }
        case .remove: result = list.filter { !named.contains($0) }
        case .prepend: result = named + list.filter { !named.contains($0) }
        }
        if result.isEmpty { throw problem(.nothingLeft) }
        return result
    }
}

/// Why an algorithm choice cannot be used: it names an algorithm eSSH does not support, leaves a list empty, or is
/// not a comma list. The message names the choice, where it was written and, for an unknown name, every algorithm
/// of the kind eSSH supports.
public struct AlgorithmProblem: UserFacingError, Sendable, Equatable {
    /// Where the choice was written.
    public enum Source: Sendable, Equatable {
        /// A command line option (`--ciphers`).
        case option
        /// A saved server's field (the server's name; empty while it is being added).
        case savedServer(String)
    }

    /// What is wrong.
    public enum Reason: Sendable, Equatable {
        /// A name (or pattern) that matches no supported algorithm.
        case unknown(String)
        /// The change leaves nothing to offer.
        case nothingLeft
        /// Not a comma list (Inventory's sentence).
        case syntax(String)
    }

    public let kind: AlgorithmKind
    /// The choice as written (`+aes128cbc`).
    public let text: String
    public let source: Source
    public let reason: Reason
    /// Every algorithm of this kind eSSH supports, in libssh2's order.
    public let supported: [String]

    /// The problem as a sentence: `--ciphers +aes128cbc: eSSH knows no cipher "aes128cbc". It supports: …`.
    public var message: String {
        let place: String
        switch source {
        case .option: place = "\(kind.option) \(text)"
        case .savedServer(let name):
            place = name.isEmpty ? "\(kind.keyword) \(text)" : "The \(kind.keyword) field of \(name) (\(text))"
        }
        switch reason {
        case .unknown(let name):
            let what = name.contains("*") || name.contains("?") ? "matches no \(kind.noun) eSSH supports"
                : "is not a \(kind.noun) eSSH supports"
            return "\(place): “\(name)” \(what). It supports: \(supported.joined(separator: ", "))."
        case .nothingLeft:
            return "\(place): no \(kind.noun) would be left to offer."
        case .syntax(let sentence):
            return "\(place): \(sentence)"
        }
    }
}

extension AlgorithmChoices {
    /// One choice by kind.
    public subscript(kind: AlgorithmKind) -> String? {
        switch kind {
        case .kex: return kex
        case .hostKey: return hostKeys
        case .cipher: return ciphers
        case .mac: return macs
        }
    }
}
