import Crypto
import Foundation
import SSH
import TestSupport
import Transfer

/// A session to the harness's main sshd as the test user, and a private folder in its home removed afterwards.
final class RemoteSandbox {
    let servers: TestServers
    let session: SSHSession
    let remote: RemoteFiles
    /// Absolute, in the test user's home (shared by every worktree's harness, so unique).
    let folder: [UInt8]
    let local: TempDir

    /// `reusing`: another sandbox's remote folder (removed by both).
    init(lanes: Int = 4, reusing: [UInt8]? = nil) throws {
        servers = try TestServers.require()
        var o = ConnectOptions(host: servers.host, port: servers.port, user: servers.user,
                               knownHostsFile: servers.knownHosts)
        o.globalKnownHostsFiles = []
        o.identityFiles = [servers.key("id_ed25519")]
        o.useAgent = false
        o.connectTimeout = 5
        session = try SSHSession.connect(o)
        remote = try RemoteFiles(session: session, host: "testhost", lanes: lanes)
        folder = reusing ?? Array("\(servers.home)/essh-transfer-\(UUID().uuidString)".utf8)
        if reusing == nil { try remote.makeDirectory(folder) }
        local = try TempDir()
    }

    deinit {
        try? remote.remove(folder, recursive: true)
        remote.close()
        session.disconnect()
        local.cleanup()
    }

    func remotePath(_ name: String) -> [UInt8] { folder + Array("/\(name)".utf8) }
    func remotePath(_ name: [UInt8]) -> [UInt8] { folder + [0x2F] + name }
    func localPath(_ name: String) -> [UInt8] { Array(local.file(name).utf8) }

    /// sha256 of a remote file by the server's sha256sum.
    func remoteSHA(_ path: [UInt8]) throws -> String {
        let out = try session.capture("sha256sum -- \(Basics_quote(path))")
        return String(String(decoding: out.stdout, as: UTF8.self).prefix(64))
    }
}

/// Avoids importing Basics in every test: the same quoter the module uses.
import Basics
func Basics_quote(_ bytes: [UInt8]) -> String { ShellQuoting.quote(bytes) }

func sha256Hex(_ bytes: [UInt8]) -> String { SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined() }

func writeLocal(_ path: [UInt8], _ bytes: [UInt8], mode: mode_t = 0o644) throws {
    let c = path.map { CChar(bitPattern: $0) } + [0]
    let fd = open(c, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
    guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno)!) }
    defer { close(fd) }
    var off = 0
    while off < bytes.count {
        let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + off, $0.count - off) }
        guard n > 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno)!) }
        off += n
    }
    fchmod(fd, mode)
}

func readLocal(_ path: [UInt8]) -> [UInt8]? {
    let c = path.map { CChar(bitPattern: $0) } + [0]
    let fd = open(c, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var out: [UInt8] = []
    var buf = [UInt8](repeating: 0, count: 1 << 20)
    while true {
        let n = buf.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
        if n <= 0 { break }
        out += buf[0..<n]
    }
    return out
}

func randomBytes(_ count: Int, seed: UInt64 = 42) -> [UInt8] {
    var g = SeededGenerator(seed: seed)
    var out = [UInt8](repeating: 0, count: count)
    var i = 0
    while i < count {
        let v = g.next()
        for k in 0..<8 where i + k < count { out[i + k] = UInt8(truncatingIfNeeded: v >> (8 * k)) }
        i += 8
    }
    return out
}

/// Collects a transfer's events.
final class EventLog: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [TransferEvent] = []
    func add(_ e: TransferEvent) { lock.lock(); items.append(e); lock.unlock() }
    var events: [TransferEvent] { lock.lock(); defer { lock.unlock() }; return items }
}

func request(_ direction: TransferDirection, _ sources: [[UInt8]], _ destination: [UInt8],
             _ configure: (inout TransferOptions) -> Void = { _ in }) -> TransferRequest {
    var o = TransferOptions()
    configure(&o)
    return TransferRequest(direction: direction, sources: sources, destination: destination, options: o)
}

/// A session to a hostile SFTP server (TestSupport's HostileSFTPServer) as any user with its client key, and its files.
final class HostileConnection {
    let session: SSHSession
    let remote: RemoteFiles
    init(_ server: HostileSFTPServer) throws {
        var o = ConnectOptions(host: server.host, port: server.port, user: "anyone",
                               knownHostsFile: server.knownHostsFile)
        o.globalKnownHostsFiles = []
        o.identityFiles = [server.clientKey]
        o.useAgent = false
        o.connectTimeout = 10
        session = try SSHSession.connect(o)
        remote = try RemoteFiles(session: session, host: "hostile")
    }
    deinit {
        remote.close()
        session.disconnect()
    }
}
