import CLibPQ
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One connection to PostgreSQL through libpq. Like a libssh2 session it is used by one thread at a time (the CLI's
/// command, or the interface's team worker), so it is not Sendable.
public final class PGConnection {
    private let connection: OpaquePointer

    /// The login role the server knows this connection as.
    public let user: String
    /// The database's name.
    public let database: String
    /// Whether the connection is encrypted (TLS).
    public let usesTLS: Bool

    /// The CA bundle verify-full and verify-ca use when the URL names none: the system's store (libpq 15 does not
    /// know `sslrootcert=system`, PostgreSQL 16's spelling).
    public static let systemCABundle = "/etc/ssl/certs/ca-certificates.crt"

    private init(_ connection: OpaquePointer) {
        self.connection = connection
        user = String(cString: essh_PQuser(connection))
        database = String(cString: essh_PQdb(connection))
        usesTLS = essh_PQsslInUse(connection) == 1
    }

    deinit { essh_PQfinish(connection) }

    /// Connects to `url` (a `postgres://` URL or a `key=value` string, as libpq takes it). The password, when one is
    /// given, goes to libpq as a parameter (never the environment or the URL); without one, libpq's own sources
    /// serve (`~/.pgpass`, client certificates, peer). A URL asking for verify-ca or verify-full without naming a
    /// CA file is checked against the system's store. `timeout` bounds the connection's set-up.
    public static func connect(url: String, password: [UInt8]? = nil, timeout: Int = 10,
                               applicationName: String = "essh") throws(TeamError) -> PGConnection {
        let options = try TeamURL(url)
        var keywords = ["dbname", "connect_timeout", "fallback_application_name", "keepalives", "keepalives_idle",
                        "keepalives_interval", "keepalives_count"]
        var values = [url, String(max(1, timeout)), applicationName, "1", "10", "5", "3"]
        if options.needsCABundle, FileManager.default.fileExists(atPath: systemCABundle) {
            keywords.append("sslrootcert")
            values.append(systemCABundle)
        }
        var secret = password.map { $0 + [0] } ?? []
        defer { secret.withUnsafeMutableBytes { raw in if let base = raw.baseAddress { memset(base, 0, raw.count) } } }
        let connection: OpaquePointer? = withCStrings(keywords) { keywordPointers in
            withCStrings(values) { valuePointers in
                var keywordList = keywordPointers + [nil]
                var valueList = valuePointers + [nil]
                if !secret.isEmpty {
                    return "password".withCString { passwordKeyword in
                        secret.withUnsafeBufferPointer { bytes in
                            bytes.withMemoryRebound(to: CChar.self) { chars in
                                keywordList.insert(passwordKeyword, at: keywordList.count - 1)
                                valueList.insert(chars.baseAddress, at: valueList.count - 1)
                                return essh_PQconnectdbParams(keywordList, valueList, 1)
                            }
                        }
                    }
                }
                return essh_PQconnectdbParams(keywordList, valueList, 1)
            }
        }
        guard let connection else { throw TeamError(.connect, "libpq could not allocate a connection") }
        guard essh_PQstatus(connection) == CONNECTION_OK else {
            let message = PGConnection.trimmed(essh_PQerrorMessage(connection))
            essh_PQfinish(connection)
            throw TeamError.connectFailure(message, target: options.display)
        }
        return PGConnection(connection)
    }

    /// Runs one statement with text parameters (`$1`, `$2`, … ; nil is NULL) and returns its rows as text.
    @discardableResult
    public func execute(_ sql: String, _ parameters: [String?] = []) throws(TeamError) -> PGRows {
        let result: OpaquePointer? = withOptionalCStrings(parameters) { pointers in
            essh_PQexecParams(connection, sql, Int32(pointers.count), nil, pointers, nil, nil, 0)
        }
        return try PGConnection.rows(of: result, connection: connection)
    }

    /// Runs several statements without parameters (a migration).
    public func executeScript(_ sql: String) throws(TeamError) {
        let result = essh_PQexec(connection, sql)
        _ = try PGConnection.rows(of: result, connection: connection)
        while let more = essh_PQgetResult(connection) { essh_PQclear(more) }
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
    public func transaction<T>(_ isolation: String = "READ COMMITTED",
                               _ body: (PGConnection) throws(TeamError) -> T) throws(TeamError) -> T {
        try execute("BEGIN ISOLATION LEVEL \(isolation)")
        do {
            let value = try body(self)
            try execute("COMMIT")
            return value
        } catch {
            _ = try? execute("ROLLBACK")
            throw error
        }
    }

    /// Starts listening on `channel` (an identifier eSSH chose, never user input).
    public func listen(_ channel: String) throws(TeamError) {
        try execute("LISTEN \(channel)")
    }

    /// Waits up to `timeout` seconds for notifications, or until `wake` (a descriptor, such as a self-pipe's reading
    /// end) is readable; returns the payloads received (none on a timeout or a wake). Throws when the connection is
    /// lost.
    public func waitForNotifications(timeout: Double, wake: Int32? = nil) throws(TeamError) -> [PGNotification] {
        var pending = drainNotifications()
        if !pending.isEmpty { return pending }
        let socket = essh_PQsocket(connection)
        guard socket >= 0 else { throw TeamError(.connectionLost, "the connection to PostgreSQL is closed") }
        var descriptors = [pollfd(fd: socket, events: Int16(POLLIN), revents: 0)]
        if let wake { descriptors.append(pollfd(fd: wake, events: Int16(POLLIN), revents: 0)) }
        let milliseconds = Int32(max(0, min(timeout, 86_400)) * 1000)
        let ready = poll(&descriptors, nfds_t(descriptors.count), milliseconds)
        if ready < 0 && errno != EINTR { throw TeamError(.connectionLost, "poll failed (errno \(errno))") }
        if descriptors[0].revents != 0 {
            guard essh_PQconsumeInput(connection) == 1 else {
                throw TeamError(.connectionLost, PGConnection.trimmed(essh_PQerrorMessage(connection)))
            }
            pending = drainNotifications()
        }
        return pending
    }

    private func drainNotifications() -> [PGNotification] {
        var notifications: [PGNotification] = []
        while let notice = essh_PQnotifies(connection) {
            notifications.append(PGNotification(channel: String(cString: notice.pointee.relname),
                                                payload: String(cString: notice.pointee.extra)))
            essh_PQfreemem(notice)
        }
        return notifications
    }

    /// Whether the connection still works as far as libpq knows (it learns of a loss on the next use).
    public var isOpen: Bool { essh_PQstatus(connection) == CONNECTION_OK }

    private static func rows(of result: OpaquePointer?, connection: OpaquePointer) throws(TeamError) -> PGRows {
        guard let result else {
            throw TeamError(.connectionLost, trimmed(essh_PQerrorMessage(connection)))
        }
        defer { essh_PQclear(result) }
        let status = essh_PQresultStatus(result)
        guard status == PGRES_TUPLES_OK || status == PGRES_COMMAND_OK || status == PGRES_EMPTY_QUERY else {
            let state = essh_PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
            let primary = essh_PQresultErrorField(result, Int32(UInt8(ascii: "M"))).map { String(cString: $0) }
            let message = primary ?? trimmed(essh_PQerrorMessage(connection))
            if essh_PQstatus(connection) != CONNECTION_OK {
                throw TeamError(.connectionLost, message)
            }
            throw TeamError.statementFailure(message, sqlState: state)
        }
        let rowCount = Int(essh_PQntuples(result))
        let columnCount = Int(essh_PQnfields(result))
        let columns = (0..<columnCount).map { String(cString: essh_PQfname(result, Int32($0))) }
        var rows: [[String?]] = []
        rows.reserveCapacity(rowCount)
        for row in 0..<rowCount {
            var values: [String?] = []
            values.reserveCapacity(columnCount)
            for column in 0..<columnCount {
                if essh_PQgetisnull(result, Int32(row), Int32(column)) == 1 {
                    values.append(nil)
                } else {
                    values.append(String(cString: essh_PQgetvalue(result, Int32(row), Int32(column))))
                }
            }
            rows.append(values)
        }
        let affected = Int(String(cString: essh_PQcmdTuples(result))) ?? 0
        return PGRows(columns: columns, rows: rows, affected: affected)
    }

    static func trimmed(_ message: UnsafePointer<CChar>?) -> String {
        guard let message else { return "" }
        // libpq writes "…failed: Connection refused\n\tIs the server running…": one line, single spaces.
        return String(cString: message).split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.joined(separator: " ")
    }
}

/// A notification received on a LISTEN channel.
public struct PGNotification: Sendable, Equatable {
    public let channel: String
    public let payload: String
}

/// A statement's rows, every value as PostgreSQL's text (nil for NULL).
public struct PGRows: Sendable {
    public let columns: [String]
    public let rows: [[String?]]
    /// The rows the statement inserted, changed or removed.
    public let affected: Int

    /// The first row's first value.
    public var scalar: String? { rows.first?.first ?? nil }
}

/// Calls `body` with C strings of `strings` that live as long as the call.
private func withCStrings<R>(_ strings: [String], _ body: ([UnsafePointer<CChar>?]) -> R) -> R {
    withOptionalCStrings(strings.map { Optional($0) }, body)
}

private func withOptionalCStrings<R>(_ strings: [String?], _ body: ([UnsafePointer<CChar>?]) -> R) -> R {
    let copies: [UnsafeMutablePointer<CChar>?] = strings.map { $0.map { strdup($0) } ?? nil }
    defer { copies.forEach { free($0) } }
    return body(copies.map { $0.map { UnsafePointer($0) } })
}
