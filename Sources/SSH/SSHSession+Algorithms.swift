import CLibSSH2
import Foundation

/// The algorithm lists a session offers, and what a handshake that agreed on nothing tells the person.
extension SSHSession {
    /// Sets libssh2's lists from `algorithms` before the handshake and returns what is offered: each list keeps only
    /// what this libssh2 can do, and the host key algorithms for the key types `knownTypes` come first
    /// (`Algorithms.orderedHostKeys`): those known_hosts already holds for the host, or the pinned ones. libssh2 adds `ext-info-c` and
    /// `kex-strict-c-v00@openssh.com` to the key exchange list by itself, so strict KEX is always offered.
    static func setPreferences(_ raw: OpaquePointer, _ algorithms: Algorithms, knownTypes: [String]) -> Algorithms {
        var offered = algorithms
        offered.hostKeys = algorithms.orderedHostKeys(knownTypes: knownTypes)
        let supported = Algorithms.supported
        let methods: [(AlgorithmKind, [Int32])] = [
            (.kex, [LIBSSH2_METHOD_KEX]), (.hostKey, [LIBSSH2_METHOD_HOSTKEY]),
            (.cipher, [LIBSSH2_METHOD_CRYPT_CS, LIBSSH2_METHOD_CRYPT_SC]),
            (.mac, [LIBSSH2_METHOD_MAC_CS, LIBSSH2_METHOD_MAC_SC]),
        ]
        for (kind, types) in methods {
            offered[kind] = offered[kind].filter { supported[kind].isEmpty || supported[kind].contains($0) }
            // An empty list would leave libssh2's own (weaker) defaults in place; Operations refuses one earlier.
            guard !offered[kind].isEmpty else { continue }
            for type in types { _ = libssh2_session_method_pref(raw, type, offered[kind].joined(separator: ",")) }
        }
        return offered
    }

    /// The error for a handshake that failed with `rc`. When libssh2 found no algorithm in common
    /// (LIBSSH2_ERROR_KEX_FAILURE, which libssh2 1.11 returns for every kind of mismatch, measured), a second short
    /// connection reads the server's offer so the message can name both sides' lists and what to allow; if that
    /// read fails too, the message says what eSSH offered and why the server's offer is unknown.
    static func handshakeFailure(_ error: SSHError, rc: Int32, offered: Algorithms, options: ConnectOptions,
                                 address: String, cancel: Cancellation?) -> SSHError {
        guard rc == LIBSSH2_ERROR_KEX_FAILURE else { return error }
        let place = options.port == 22 ? options.host
            : (options.host.contains(":") ? "[\(options.host)]" : options.host) + ":\(options.port)"
        let library = SSHLibrary.version
        let server: KexInit
        do throws(SSHError) {
            server = try KexInitProbe.fetch(address: address, port: options.port, timeout: options.connectTimeout,
                                            cancel: cancel).kexInit
        } catch {
            if error.kind == .cancelled { return error }
            let lists = AlgorithmKind.allCases.map { "\($0.noun)s \(offered[$0].joined(separator: ", "))" }
            return SSHError(.noCommonAlgorithm, "\(error.detail); libssh2 \(rc)", """
                No algorithm in common with \(place) (libssh2 \(library)), and the server's offer could not be \
                read (\(error.message)). eSSH offers \(lists.joined(separator: "; ")).
                """)
        }
        guard let mismatch = AlgorithmMismatch.find(offered: offered, server: server,
                                                    supported: Algorithms.supported) else {
            return SSHError(.protocolError, error.detail, """
                The key exchange with \(place) failed although both sides share algorithms (libssh2 \(library)).
                """)
        }
        return mismatch.error(place: place, library: library, detail: error.detail)
    }
}
