import ArgumentParser
import Basics
import Inventory
import Logging
import Operations
import SSH

/// Connecting and the error-to-exit mapping shared by the commands that log in (`exec`, `net`).
extension ResolvedConnection {
    /// Connects and logs in, or throws why not (`ExitStatus.connection`, or `.interrupted` quietly). `dest` is what
    /// the person typed, to say when it named no saved server.
    func connect(dest: String, cancel: Cancellation, log: Logger, hint: String = "", quiet: Bool = false) throws
        -> SSHSession
    {
        let session: SSHSession
        do {
            session = try SSHSession.connect(options, prompter: prompter, cancel: cancel) { stage in
                if case .banner(let text) = stage {
                    // As ssh does: the server's banner on stderr before login (sanitised: a server's escape
                    // sequences never reach the terminal), unless -q.
                    if !quiet { printBanner(text) }
                } else {
                    log.debug("\(String(describing: stage))")
                }
            }
        } catch {
            log.debug("libssh2: \(error.detail)")
            if error.kind == .nameNotFound && server == nil && !fromSSHConfig && !dest.contains(".")
                && !dest.contains("@") {
                throw CommandFailure(.connection, error.message + " No saved server is named “\(dest)” either (see "
                                     + "essh servers list), nor a Host in ~/.ssh/config." + hint
                                     + (missingDatabase.map { " " + $0 } ?? ""))
            }
            throw Self.ending(error)
        }
        if let credentials {
            // The command line remembers nothing it was told; the interface offers to (the lead's dialog).
            _ = credentials.takeTypedPassword()
            if credentials.storedSecretRejected, let server {
                printError("""
                    \(server.name) refused the password from its credential source (\(server.credential.text)) and \
                    took the one typed: update what the source gives.
                    """)
            }
        }
        let (address, banner) = (session.address, session.serverBanner)
        let (key, identity) = (session.hostKey.fingerprint, session.loginIdentity)
        log.debug("connected to \(address) (\(banner)), host key \(key), logged in with \(identity)")
        for line in session.negotiated.lines { log.debug("\(line)") }
        rememberIdentity(identity)
        return session
    }

    /// After a login to the saved server: remembers the key that logged in, to offer it first next time
    /// (`IdentityMemory`); no-op for unsaved hosts and password logins. A database that cannot be written never
    /// fails the command that connected.
    func rememberIdentity(_ identity: LoginIdentity) {
        guard let server else { return }
        _ = try? IdentityMemory.record(identity, for: ConnectionProfile(server: server), in: inventory)
    }

    /// Notes the connection (and the detected system, if any) on the saved server; no-op for unsaved hosts.
    /// A database that cannot be written never fails the command that connected.
    func recordConnection(os: ServerOS? = nil) {
        guard let server, let inventory else { return }
        try? inventory.recordConnection(named: server.name, os: os)
    }

    /// A session's failure as the command's ending: an interruption ends quietly (the person pressed Ctrl-C and
    /// knows), anything else says why; the status is the table's (130, 124 for the command's time, 255).
    static func ending(_ error: SSHError) -> any Error {
        error.kind == .cancelled ? CommandFailure(.interrupted) : error
    }
}

extension ConnectionOptions {
    /// Resolves DEST (with the command's `port`), connects (SIGINT, SIGTERM and SIGHUP cancel the work), runs `body`
    /// with the session, then disconnects. Failing to connect prints why and throws the exit status (see `ResolvedConnection.connect`).
    /// `hint` is added to a "no such host" message; `adjust` changes the session options before connecting.
    func withSession(_ dest: String, port: PortChoice, hint: String = "",
                     adjust: (inout ConnectOptions) -> Void = { _ in },
                     _ body: (SSHSession, ResolvedConnection, Cancellation, Logger) throws -> Void) throws {
        var log = Logger(label: "essh") { StreamLogHandler.standardError(label: $0) }
        log.logLevel = verbose ? .debug : .critical
        var target = try resolve(dest, port: port)
        log.debug("\(dest): \(target.origin)")
        for note in target.notes { log.debug("\(note)") }
        if !target.options.jumps.isEmpty {
            log.debug("\(dest): through \(target.options.hopNames.joined(separator: " → ")) (jump hosts)")
        }
        adjust(&target.options)
        let cancel = try Cancellation()
        let signals = SignalCancellation(cancel)
        defer { signals.stop() }
        let session = try target.connect(dest: dest, cancel: cancel, log: log, hint: hint, quiet: quiet)
        defer { session.disconnect() }
        try body(session, target, cancel, log)
    }
}
