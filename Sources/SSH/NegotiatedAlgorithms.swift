import CLibSSH2

/// What the client and the server agreed on in the handshake (`libssh2_session_methods`), for `-v` and the
/// interface.
public struct NegotiatedAlgorithms: Sendable, Equatable {
    /// The key exchange method (`curve25519-sha256`).
    public let kex: String
    /// The host key signature algorithm (`rsa-sha2-512` for an RSA key, `ssh-ed25519`).
    public let hostKey: String
    /// The cipher from client to server.
    public let cipherClientToServer: String
    /// The cipher from server to client.
    public let cipherServerToClient: String
    /// The MAC from client to server; nil when the cipher authenticates by itself (AEAD: chacha20-poly1305,
    /// AES-GCM), as OpenSSH's `<implicit>`.
    public let macClientToServer: String?
    /// The MAC from server to client; nil with an AEAD cipher.
    public let macServerToClient: String?

    /// Every field.
    public init(kex: String, hostKey: String, cipherClientToServer: String, cipherServerToClient: String,
                macClientToServer: String?, macServerToClient: String?) {
        self.kex = kex
        self.hostKey = hostKey
        self.cipherClientToServer = cipherClientToServer
        self.cipherServerToClient = cipherServerToClient
        self.macClientToServer = macClientToServer
        self.macServerToClient = macServerToClient
    }

    /// Reads a session after its handshake. libssh2 reports a MAC even for AEAD ciphers (the name it agreed on
    /// for chacha20-poly1305 and never uses, or a made-up `INTEGRATED-AES-GCM`), so those become nil.
    static func read(_ raw: OpaquePointer) -> NegotiatedAlgorithms {
        func method(_ type: Int32) -> String { libssh2_session_methods(raw, type).map { String(cString: $0) } ?? "" }
        let cs = method(LIBSSH2_METHOD_CRYPT_CS)
        let sc = method(LIBSSH2_METHOD_CRYPT_SC)
        return NegotiatedAlgorithms(
            kex: method(LIBSSH2_METHOD_KEX), hostKey: method(LIBSSH2_METHOD_HOSTKEY),
            cipherClientToServer: cs, cipherServerToClient: sc,
            macClientToServer: Algorithms.aeadCiphers.contains(cs) ? nil : method(LIBSSH2_METHOD_MAC_CS),
            macServerToClient: Algorithms.aeadCiphers.contains(sc) ? nil : method(LIBSSH2_METHOD_MAC_SC))
    }

    /// The lines `-v` prints: `key exchange curve25519-sha256, host key rsa-sha2-512`, then the cipher and MAC of
    /// each direction (`MAC implicit` with an AEAD cipher).
    public var lines: [String] {
        func mac(_ name: String?) -> String { name ?? "implicit (AEAD)" }
        return [
            "key exchange \(kex), host key \(hostKey)",
            "client to server: cipher \(cipherClientToServer), MAC \(mac(macClientToServer))",
            "server to client: cipher \(cipherServerToClient), MAC \(mac(macServerToClient))",
        ]
    }
}
