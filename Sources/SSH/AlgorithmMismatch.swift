/// Why a handshake found nothing to agree on, worked out from what each side offered: the lists where no algorithm
/// is in common, with the server's offer, eSSH's, and what the person could allow. Pure: the server's lists come
/// from `KexInitProbe`.
public struct AlgorithmMismatch: Sendable, Equatable {
    /// One list without a common algorithm.
    public struct Gap: Sendable, Equatable {
        public let kind: AlgorithmKind
        /// `client to server` or `server to client` when only one direction of a cipher or MAC fails; nil otherwise.
        public let direction: String?
        /// What the server offers, in its order (extension markers left out).
        public let serverOffers: [String]
        /// What eSSH offered.
        public let offered: [String]
        /// The server's algorithms this libssh2 could use if allowed, in the server's order.
        public let allowable: [String]
        /// The cipher in effect for this direction when it is a MAC gap (libssh2 wants a MAC in common even with
        /// chacha20-poly1305, which does not use it).
        public let cipher: String?
    }

    /// Every list without a common algorithm, in the order libssh2 agrees them (key exchange, host key, ciphers,
    /// MACs).
    public let gaps: [Gap]

    /// The lists where `offered` and `server` share nothing, as libssh2 1.11 agrees them: the first of ours that the
    /// server lists wins; the MAC is not agreed with AES-GCM, but is with chacha20-poly1305. A MAC list is judged
    /// with the cipher that would be used, or the one the person would allow. Nil when every list has an algorithm
    /// in common (then the failure had another cause).
    public static func find(offered: Algorithms, server: KexInit, supported: Algorithms) -> AlgorithmMismatch? {
        var gaps: [Gap] = []
        func agree(_ ours: [String], _ theirs: [String]) -> String? { ours.first { theirs.contains($0) } }
        func gap(_ kind: AlgorithmKind, _ direction: String?, _ theirs: [String], cipher: String? = nil) -> Gap {
            Gap(kind: kind, direction: direction, serverOffers: theirs, offered: offered[kind],
                allowable: theirs.filter { supported[kind].contains($0) }, cipher: cipher)
        }
        if agree(offered.kex, server.kexMethods) == nil { gaps.append(gap(.kex, nil, server.kexMethods)) }
        if agree(offered.hostKeys, server.hostKeys) == nil { gaps.append(gap(.hostKey, nil, server.hostKeys)) }

        let directions = [("client to server", server.ciphersClientToServer, server.macsClientToServer),
                          ("server to client", server.ciphersServerToClient, server.macsServerToClient)]
        let sameLists = server.ciphersClientToServer == server.ciphersServerToClient
            && server.macsClientToServer == server.macsServerToClient
        var cipherGaps: [Gap] = []
        var macGaps: [Gap] = []
        for (direction, ciphers, macs) in directions {
            let label = sameLists ? nil : direction
            let agreed = agree(offered.ciphers, ciphers)
            if agreed == nil { cipherGaps.append(gap(.cipher, label, ciphers)) }
            let cipher = agreed ?? ciphers.first { supported.ciphers.contains($0) }
            let integratedMAC = cipher.map { $0.hasPrefix("aes") && $0.hasSuffix("-gcm@openssh.com") } ?? false
            if !integratedMAC && agree(offered.macs, macs) == nil {
                macGaps.append(gap(.mac, label, macs, cipher: cipher))
            }
        }
        // With the same lists both ways, one sentence says it for both directions.
        if sameLists {
            cipherGaps = Array(cipherGaps.prefix(1))
            macGaps = Array(macGaps.prefix(1))
        }
        gaps += cipherGaps + macGaps
        return gaps.isEmpty ? nil : AlgorithmMismatch(gaps: gaps)
    }

    /// What to tell the person: for each gap what each side offered, then how to allow one of the server's
    /// algorithms (`--ciphers +aes128-cbc`, or the saved server's field), or why none can be.
    /// `place` names the server (`127.0.0.1:2222`); `library` is libssh2's version.
    public func message(place: String, library: String) -> String {
        error(place: place, library: library, detail: "").message
    }

    /// The error: what each side offered and why nothing can be allowed, as its situation; what could be allowed as
    /// its remedy (each front end names its own way of allowing it).
    public func error(place: String, library: String, detail: String) -> SSHError {
        var sentences: [String] = []
        for gap in gaps {
            let direction = gap.direction.map { " (\($0))" } ?? ""
            let theirs = gap.serverOffers.isEmpty ? "nothing" : gap.serverOffers.joined(separator: ", ")
            var sentence = "No \(gap.kind.noun) in common with \(place)\(direction): the server offers \(theirs); "
                + "eSSH offers \(gap.offered.joined(separator: ", "))."
            if gap.kind == .mac, let cipher = gap.cipher, Algorithms.aeadCiphers.contains(cipher) {
                sentence += " (\(cipher) does not use the MAC, but libssh2 still needs one in common.)"
            }
            sentences.append(sentence)
        }
        var allow: [SSHError.AllowedAlgorithm] = []
        for gap in gaps where !allow.contains(where: { $0.kind == gap.kind }) {
            if let name = gap.allowable.first {
                allow.append(SSHError.AllowedAlgorithm(kind: gap.kind, name: name))
            } else if gap.kind == .hostKey && gap.serverOffers.contains(where: { $0.hasPrefix("rsa-sha2-") }) {
                sentences.append("The server's host key is RSA and it signs only with rsa-sha2-512/256, which this "
                                 + "libssh2 (\(library)) cannot verify: build eSSH with libssh2 1.11 or newer "
                                 + "(make build).")
            } else {
                sentences.append("This libssh2 (\(library)) supports none of the server's \(gap.kind.noun)s; "
                                 + "eSSH can use \(Algorithms.supported[gap.kind].joined(separator: ", ")).")
            }
        }
        let sha1 = allow.contains { $0.kind == .hostKey && $0.name == "ssh-rsa" }
        return SSHError(.noCommonAlgorithm, detail, sentences.joined(separator: " "),
                        remedy: allow.isEmpty ? nil : .allowAlgorithms(allow, sha1HostKey: sha1))
    }
}
