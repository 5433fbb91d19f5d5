import Basics
import CLibSSH2

/// The four lists a connection agrees on, as OpenSSH names them (`KexAlgorithms`, `HostKeyAlgorithms`, `Ciphers`,
/// `MACs`). Ciphers and MACs are agreed for each direction; eSSH offers the same list both ways.
public enum AlgorithmKind: String, Sendable, CaseIterable {
    case kex, hostKey, cipher, mac

    /// As a sentence names one of them: `key exchange`, `host key algorithm`, `cipher`, `MAC`.
    public var noun: String {
        switch self {
        case .kex: return "key exchange"
        case .hostKey: return "host key algorithm"
        case .cipher: return "cipher"
        case .mac: return "MAC"
        }
    }

    /// OpenSSH's keyword for the list, also the saved server's field: `KexAlgorithms`, `HostKeyAlgorithms`,
    /// `Ciphers`, `MACs`.
    public var keyword: String {
        switch self {
        case .kex: return "KexAlgorithms"
        case .hostKey: return "HostKeyAlgorithms"
        case .cipher: return "Ciphers"
        case .mac: return "MACs"
        }
    }

    /// The command line's option for the list (every connecting command has it).
    public var option: String {
        switch self {
        case .kex: return "--kex"
        case .hostKey: return "--host-key-algorithms"
        case .cipher: return "--ciphers"
        case .mac: return "--macs"
        }
    }
}

/// The algorithms a session offers, each list in order of preference (the first the server also knows wins).
/// `ConnectOptions.algorithms` carries them; `Algorithms.defaults` is what eSSH offers when nobody says otherwise.
public struct Algorithms: Sendable, Equatable {
    /// Key exchange methods.
    public var kex: [String]
    /// Host key signature algorithms (`rsa-sha2-512` for an RSA key, never the key's type `ssh-rsa` alone).
    public var hostKeys: [String]
    /// Ciphers, both directions.
    public var ciphers: [String]
    /// MACs, both directions (unused with an AEAD cipher, which authenticates by itself).
    public var macs: [String]

    /// Four lists.
    public init(kex: [String], hostKeys: [String], ciphers: [String], macs: [String]) {
        self.kex = kex
        self.hostKeys = hostKeys
        self.ciphers = ciphers
        self.macs = macs
    }

    /// One list by kind.
    public subscript(kind: AlgorithmKind) -> [String] {
        get {
            switch kind {
            case .kex: return kex
            case .hostKey: return hostKeys
            case .cipher: return ciphers
            case .mac: return macs
            }
        }
        set {
            switch kind {
            case .kex: kex = newValue
            case .hostKey: hostKeys = newValue
            case .cipher: ciphers = newValue
            case .mac: macs = newValue
            }
        }
    }

    /// OpenSSH 9's client defaults, less what libssh2 cannot do (post-quantum KEX, umac, certificates, security
    /// keys), with the AEAD ciphers first and SHA-1 and MD5 MACs left out (docs/DECISIONS.md, 2026-11-24). Refused
    /// unless named: ssh-rsa (SHA-1 signatures), SHA-1 key exchanges, CBC ciphers, 3DES, arcfour, blowfish, cast128,
    /// hmac-sha1, hmac-md5, hmac-ripemd160. DSA (ssh-dss) is gone from libssh2 1.11 altogether.
    public static let defaults = Algorithms(
        kex: ["curve25519-sha256", "curve25519-sha256@libssh.org", "ecdh-sha2-nistp256", "ecdh-sha2-nistp384",
              "ecdh-sha2-nistp521", "diffie-hellman-group-exchange-sha256", "diffie-hellman-group16-sha512",
              "diffie-hellman-group18-sha512", "diffie-hellman-group14-sha256"],
        hostKeys: ["ssh-ed25519", "ecdsa-sha2-nistp256", "ecdsa-sha2-nistp384", "ecdsa-sha2-nistp521",
                   "rsa-sha2-512", "rsa-sha2-256"],
        ciphers: defaultCiphers,
        macs: ["hmac-sha2-256-etm@openssh.com", "hmac-sha2-512-etm@openssh.com", "hmac-sha2-256",
               "hmac-sha2-512"])

    /// The AEAD ciphers first, then AES-CTR; which AEAD leads depends on the library. With eSSH's patched libssh2
    /// (AES handed to OpenSSL a packet at a time, `SSHLibrary.batchesCrypt`) AES-GCM costs 0.5 CPU s/GB on a 1 GB
    /// `cat`, against 1.8 s/GB for chacha20-poly1305 (libssh2's portable C); with an unpatched libssh2 (a
    /// system's) AES-GCM costs 3.3 s/GB, so chacha20-poly1305 leads there (docs/DECISIONS.md, 2026-11-24).
    static var defaultCiphers: [String] {
        SSHLibrary.batchesCrypt
            ? ["aes128-gcm@openssh.com", "aes256-gcm@openssh.com", "chacha20-poly1305@openssh.com",
               "aes128-ctr", "aes192-ctr", "aes256-ctr"]
            : ["chacha20-poly1305@openssh.com", "aes256-gcm@openssh.com", "aes128-gcm@openssh.com",
               "aes256-ctr", "aes192-ctr", "aes128-ctr"]
    }

    /// Every algorithm the libssh2 this process runs with can use, in libssh2's order: what a list may name. The
    /// markers libssh2 adds to every key exchange list by itself (`ext-info-c`, `kex-strict-c-v00@openssh.com`),
    /// certificate host keys (known_hosts holds no certificate authorities eSSH reads) and `none` are left out.
    public static let supported: Algorithms = {
        guard (try? SSHLibrary.ensureInitialised()) != nil,
              let raw = libssh2_session_init_ex(nil, nil, nil, nil) else {
            return Algorithms(kex: [], hostKeys: [], ciphers: [], macs: [])
        }
        defer { libssh2_session_free(raw) }
        func list(_ method: Int32) -> [String] {
            var algs: UnsafeMutablePointer<UnsafePointer<CChar>?>?
            let n = libssh2_session_supported_algs(raw, method, &algs)
            guard n > 0, let algs else { return [] }
            defer { libssh2_free(raw, algs) }
            return (0..<Int(n)).compactMap { algs[$0].map { String(cString: $0) } }.filter(isNegotiable)
        }
        return Algorithms(kex: list(LIBSSH2_METHOD_KEX), hostKeys: list(LIBSSH2_METHOD_HOSTKEY),
                          ciphers: list(LIBSSH2_METHOD_CRYPT_CS), macs: list(LIBSSH2_METHOD_MAC_CS))
    }()

    /// Whether a name libssh2 lists is a real choice rather than an extension marker, a certificate or `none`.
    static func isNegotiable(_ name: String) -> Bool {
        !isExtensionMarker(name) && !name.hasSuffix("-cert-v01@openssh.com") && name != "none"
    }

    /// Whether a name in a key exchange list announces an extension (RFC 8308's `ext-info-c`/`-s`, OpenSSH's strict
    /// key exchange `kex-strict-c-v00@openssh.com`/`-s-`) rather than a method. libssh2 1.11 puts
    /// `ext-info-c,kex-strict-c-v00@openssh.com` in front of every key exchange list it sends, whatever the
    /// preference says, so strict KEX stays on when eSSH sets its own list.
    static func isExtensionMarker(_ name: String) -> Bool {
        name.hasPrefix("ext-info-") || name.hasPrefix("kex-strict-")
    }

    /// Ciphers that authenticate by themselves, so the MAC list is not used with them.
    public static let aeadCiphers: Set<String> = [
        "chacha20-poly1305@openssh.com", "aes256-gcm@openssh.com", "aes128-gcm@openssh.com",
    ]

    /// The names of `list` that `pattern` matches, in `list`'s order: OpenSSH's patterns, where `*` matches any run
    /// of characters and `?` one (`aes*-cbc`, `hmac-sha1*`); a name without either matches only itself.
    public static func names(matching pattern: String, in list: [String]) -> [String] {
        list.filter { WildcardPattern.matches(pattern, $0) }
    }

    /// The host key algorithms that verify a key of this type (`ssh-rsa` keys sign with rsa-sha2-512, rsa-sha2-256
    /// or the old SHA-1 `ssh-rsa`); other types are their own algorithm.
    public static func signatureAlgorithms(forKeyType type: String) -> [String] {
        type == "ssh-rsa" ? ["rsa-sha2-512", "rsa-sha2-256", "ssh-rsa"] : [type]
    }

    /// `hostKeys` with the algorithms for the key types known_hosts already holds for the host first (libssh2
    /// would otherwise settle on another type and report a key OpenSSH stored as unknown), each group in this
    /// list's own order. Only algorithms of the list are offered: a stored `ssh-rsa` key brings rsa-sha2-512/256
    /// forward, never the SHA-1 `ssh-rsa` unless the list has it.
    public func orderedHostKeys(knownTypes: [String]) -> [String] {
        let wanted = Set(knownTypes.flatMap(Self.signatureAlgorithms(forKeyType:)))
        return hostKeys.filter { wanted.contains($0) } + hostKeys.filter { !wanted.contains($0) }
    }
}
