import CLibSSH2
import Foundation

/// One authenticated SSH connection. It owns the libssh2 session and its socket, frees both in `deinit`, and is
/// safe to share between threads: libssh2 allows one thread at a time per session, so every call takes `lock`.
/// Commands run on channels of this one session, so a TUI keeps one session per server for many commands.
// @unchecked: the libssh2 session handle is a raw pointer the compiler cannot check, and libssh2 allows one thread at
// a time per session. Every use of `raw`, `fd`, `context` and `isClosed` happens with `lock` held (SSHSession+Exec,
// ShellChannel); the other stored properties are immutable values. The lock guards a C resource rather than Swift
// state, so a Mutex would not let the compiler check anything more here: it stays an NSLock.
public final class SSHSession: @unchecked Sendable {
    let raw: OpaquePointer
    let fd: Int32
    let lock = NSLock()
    let context: SessionContext
    /// The host, port and user this session is logged in as.
    public let host: String
    public let port: Int
    public let user: String
    /// The address actually reached (`127.0.0.1`, `::1`, …).
    public let address: String
    /// The server's identification line (`SSH-2.0-OpenSSH_9.2p1 …`).
    public let serverBanner: String
    /// The server's host key, verified against known_hosts before authentication.
    public let hostKey: HostKey
    /// The method that logged in.
    public let loginMethod: LoginMethod
    /// The method that logged in as text (`publickey (/root/.ssh/id_ed25519)`, `password`, …), for logs.
    public var authenticatedWith: String { loginMethod.description }
    let keepaliveInterval: Int
    private var isClosed = false

    /// Connects, verifies the host key, then authenticates — or throws an `SSHError` saying what failed.
    public static func connect(_ options: ConnectOptions, prompter: Prompter = NonInteractivePrompter(),
                               cancel: Cancellation? = nil,
                               onStage: (ConnectStage) -> Void = { _ in }) throws(SSHError) -> SSHSession {
        try SSHLibrary.ensureInitialised()
        var knownHosts = try KnownHosts(userFile: options.knownHostsFile,
                                        globalFiles: options.globalKnownHostsFiles)
        let (fd, address) = try SocketConnector.connect(host: options.host, port: options.port,
                                                        timeout: options.connectTimeout, cancel: cancel,
                                                        onStage: onStage)
        let context = SessionContext()
        guard let raw = libssh2_session_init_ex(nil, nil, nil, Unmanaged.passUnretained(context).toOpaque()) else {
            close(fd)
            throw SSHError(.library, "libssh2_session_init_ex returned NULL", "The SSH library could not start a session.")
        }
        let io = SessionIO(raw: raw, fd: fd, cancel: cancel, timeout: options.connectTimeout)
        do throws(SSHError) {
            libssh2_session_set_blocking(raw, 0)
            setPreferences(raw, knownTypes: knownHosts.knownTypes(host: options.host, port: options.port))
            onStage(.handshaking)
            try io.call("handshake") { libssh2_session_handshake(raw, fd) }
            onStage(.verifyingHostKey)
            let key = try serverHostKey(raw)
            try verifyHostKey(key, options: options, knownHosts: &knownHosts, prompter: prompter)
            let banner = libssh2_session_banner_get(raw).map { String(cString: $0) } ?? ""
            let method = try Authenticator(io: io, options: options, prompter: prompter, context: context)
                .authenticate(onStage: onStage)
            if options.keepaliveInterval > 0 {
                libssh2_keepalive_config(raw, 1, UInt32(options.keepaliveInterval))
            }
            return SSHSession(raw: raw, fd: fd, context: context, options: options, address: address,
                              banner: banner, hostKey: key, loginMethod: method)
        } catch {
            libssh2_session_free(raw)
            close(fd)
            throw error
        }
    }

    private init(raw: OpaquePointer, fd: Int32, context: SessionContext, options: ConnectOptions, address: String,
                 banner: String, hostKey: HostKey, loginMethod: LoginMethod) {
        self.raw = raw
        self.fd = fd
        self.context = context
        self.host = options.host
        self.port = options.port
        self.user = options.user
        self.address = address
        self.serverBanner = banner
        self.hostKey = hostKey
        self.loginMethod = loginMethod
        self.keepaliveInterval = options.keepaliveInterval
    }

    deinit { shutdown() }

    /// Says goodbye to the server and closes the socket. Later calls fail with `disconnected`.
    public func disconnect() {
        lock.lock()
        defer { lock.unlock() }
        shutdown()
    }

    private func shutdown() {
        guard !isClosed else { return }
        isClosed = true
        // Bounded: a dead peer must not hold up the goodbye.
        libssh2_session_set_blocking(raw, 1)
        libssh2_session_set_timeout(raw, 1000)
        _ = libssh2_session_disconnect_ex(raw, 11 /* SSH_DISCONNECT_BY_APPLICATION */, "bye", "")
        libssh2_session_free(raw)
        close(fd)
    }

    /// Whether `disconnect()` ran or the connection broke.
    public var isConnected: Bool {
        lock.lock()
        defer { lock.unlock() }
        return !isClosed
    }

    func ensureOpen() throws(SSHError) {
        if isClosed { throw SSHError(.disconnected, "", "The connection to \(host) is closed.") }
    }

    // MARK: - Connection set-up

    /// OpenSSH's order, with the types known_hosts already holds for this host first (libssh2 would otherwise
    /// pick ecdsa and miss an ed25519 key OpenSSH stored).
    static let hostKeyOrder = ["ssh-ed25519", "ecdsa-sha2-nistp256", "ecdsa-sha2-nistp384", "ecdsa-sha2-nistp521",
                               "ssh-rsa"]
    static let kexOrder = ["curve25519-sha256", "curve25519-sha256@libssh.org", "ecdh-sha2-nistp256",
                           "ecdh-sha2-nistp384", "ecdh-sha2-nistp521", "diffie-hellman-group16-sha512",
                           "diffie-hellman-group18-sha512", "diffie-hellman-group14-sha256"]
    /// AES-GCM first when libssh2 hands AES data to OpenSSL a packet at a time (eSSH's patched build): 1 GB `cat`
    /// client CPU 0.5 s/GB, against 1.8 s/GB for chacha20-poly1305 (libssh2's portable C) and 1.0 s/GB for
    /// aes128-ctr + hmac-sha2-256. Without the patch (the system's libssh2) AES-GCM costs 3.3 s/GB and CTR 2.4 s/GB,
    /// so chacha20-poly1305 (1.9 s/GB) leads (docs/DECISIONS.md, 2026-11-24). CBC is never offered.
    static let cipherOrder: [String] = SSHLibrary.batchesCrypt
        ? ["aes128-gcm@openssh.com", "aes256-gcm@openssh.com", "chacha20-poly1305@openssh.com",
           "aes128-ctr", "aes192-ctr", "aes256-ctr"]
        : ["chacha20-poly1305@openssh.com", "aes128-ctr", "aes192-ctr", "aes256-ctr",
           "aes128-gcm@openssh.com", "aes256-gcm@openssh.com"]

    static func orderedHostKeyAlgorithms(knownTypes: [String]) -> [String] {
        let known = hostKeyOrder.filter { knownTypes.contains($0) }
        return known + hostKeyOrder.filter { !known.contains($0) }
    }

    private static func setPreferences(_ raw: OpaquePointer, knownTypes: [String]) {
        let prefs: [(Int32, [String])] = [
            (LIBSSH2_METHOD_HOSTKEY, orderedHostKeyAlgorithms(knownTypes: knownTypes)),
            (LIBSSH2_METHOD_KEX, kexOrder),
            (LIBSSH2_METHOD_CRYPT_CS, cipherOrder),
            (LIBSSH2_METHOD_CRYPT_SC, cipherOrder),
        ]
        for (method, wanted) in prefs {
            let supported = supportedAlgorithms(raw, method)
            let list = wanted.filter { supported.isEmpty || supported.contains($0) }
            if !list.isEmpty { _ = libssh2_session_method_pref(raw, method, list.joined(separator: ",")) }
        }
    }

    private static func supportedAlgorithms(_ raw: OpaquePointer, _ method: Int32) -> Set<String> {
        var algs: UnsafeMutablePointer<UnsafePointer<CChar>?>?
        let n = libssh2_session_supported_algs(raw, method, &algs)
        guard n > 0, let algs else { return [] }
        defer { libssh2_free(raw, algs) }
        return Set((0..<Int(n)).compactMap { algs[$0].map { String(cString: $0) } })
    }

    private static func serverHostKey(_ raw: OpaquePointer) throws(SSHError) -> HostKey {
        var len = 0
        var type: Int32 = 0
        guard let p = libssh2_session_hostkey(raw, &len, &type), len > 0 else {
            throw SSHError(.protocolError, "no host key", "The server sent no host key.")
        }
        let bytes = [UInt8](UnsafeRawBufferPointer(start: p, count: len))
        guard let key = HostKey(blob: bytes) else {
            throw SSHError(.protocolError, "unreadable host key", "The server's host key cannot be read.")
        }
        return key
    }

    private static func verifyHostKey(_ key: HostKey, options: ConnectOptions, knownHosts: inout KnownHosts,
                                      prompter: Prompter) throws(SSHError) {
        let name = KnownHosts.lookupName(host: options.host, port: options.port)
        switch knownHosts.verify(host: options.host, port: options.port, key: key) {
        case .match:
            return
        case .revoked(let entry):
            throw SSHError(.hostKeyRevoked, "\(entry.file):\(entry.line)",
                           "The \(key.type) host key of \(name) (\(key.fingerprint)) is marked @revoked in "
                               + "\(entry.file) line \(entry.line). Refusing to connect.")
        case .changed(let known):
            let lines = known.map { "  \($0.file) line \($0.line): \($0.key.type) \($0.key.fingerprint)" }
                .joined(separator: "\n")
            throw SSHError(.hostKeyChanged, "host key mismatch", """
                WARNING: the host key of \(name) has CHANGED. Someone may be intercepting the connection \
                (man-in-the-middle), or the server was reinstalled. Refusing to connect.
                The server now sends: \(key.type) \(key.fingerprint)
                known_hosts expects:
                \(lines)
                If you know the change is legitimate, remove the old line: ssh-keygen -R '\(name)' \
                -f \(known[0].file)   (or delete \(known[0].file) line \(known[0].line)), then connect again.
                """)
        case .unknown(let others):
            let decision: HostKeyDecision
            switch options.hostKeyPolicy {
            case .strict:
                throw SSHError(.hostKeyUnknown, "host key not in \(options.knownHostsFile)", """
                    The host key of \(name) is not known (\(key.type) \(key.fingerprint)) and the host key policy \
                    is strict. Check the fingerprint with the server's administrator, then connect once with \
                    --host-key-policy ask (or accept-new) to save it in \(options.knownHostsFile).
                    """)
            case .acceptNew:
                decision = .acceptAndSave
            case .ask:
                decision = prompter.confirmHostKey(
                    HostKeyQuestion(host: options.host, port: options.port, key: key, otherKnownTypes: others))
            }
            switch decision {
            case .reject:
                throw SSHError(.hostKeyRejected, "", "Host key of \(name) not accepted; nothing was sent to the server.")
            case .acceptOnce:
                return
            case .acceptAndSave:
                try knownHosts.append(host: options.host, port: options.port, key: key, hashed: options.hashKnownHosts)
            }
        }
    }
}

/// Per-session state the C callbacks reach through libssh2's `abstract` pointer.
// @unchecked: reached from libssh2's C callbacks through a raw pointer, so its fields are plain vars. It is only ever
// touched by the thread holding its session's `lock` (during connect, before the session exists, by the one thread
// connecting), which is the serialisation the compiler cannot see.
final class SessionContext: @unchecked Sendable {
    var keyboardInteractive: ((String, String, [(text: String, echo: Bool)]) -> [String]?)?
    /// Set once the connection broke: no more goodbyes or channel closes are attempted.
    var broken = false
    /// Channels closed on our side whose server side is still open (a cancelled command still running).
    var closing: [OpaquePointer] = []
}
