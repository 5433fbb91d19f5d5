import Foundation

/// A private folder of the harness's test user inside its home (`/home/essh-test/essh-…`), owned by that user and
/// mode 0700: a place for an `authorized_keys` sshd's StrictModes accepts (a file below /tmp is refused) and for a
/// login's own `$HOME` (an `ExtraSSHD` with `SetEnv HOME=…`), so a test changes no file another test reads.
/// Needs root, like the harness. Removed by `cleanup()`.
public struct TestUserFolder: Sendable {
    public let path: String

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public init(servers: TestServers) throws {
        path = servers.home + "/essh-test-" + UUID().uuidString
        guard mkdir(path, 0o700) == 0 else {
            throw Failure(description: "cannot create \(path): \(String(cString: strerror(errno)))")
        }
        guard let account = getpwnam(servers.user), chown(path, account.pointee.pw_uid, account.pointee.pw_gid) == 0
        else {
            rmdir(path)
            throw Failure(description: "cannot give \(path) to \(servers.user)")
        }
    }

    public func file(_ name: String) -> String { path + "/" + name }

    /// Writes `text` into `name` (folders made as needed), owned by the test user, with `mode`.
    public func write(_ text: String, to name: String, mode: mode_t = 0o600, servers: TestServers) throws {
        let target = file(name)
        let folder = (target as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        try text.write(toFile: target, atomically: false, encoding: .utf8)
        chmod(target, mode)
        guard let account = getpwnam(servers.user) else { throw Failure(description: "no user \(servers.user)") }
        for p in [folder, target] { chown(p, account.pointee.pw_uid, account.pointee.pw_gid) }
    }

    public func cleanup() { try? FileManager.default.removeItem(atPath: path) }
}
