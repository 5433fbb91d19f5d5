import Basics
import Crypto
import Foundation
import LocalProcess

/// OpenSSH's known_hosts files, read as OpenSSH reads them: plain and hashed (`|1|salt|hash`) host patterns,
/// `*`/`?` wildcards, `!` negation, `[host]:port` for ports other than 22, and the `@revoked` /
/// `@cert-authority` markers. Every entry keeps its file and line, so a changed key can name the line to fix.
/// New keys are appended; a user's file is never rewritten.
public struct KnownHosts: Sendable {
    /// One key line of a known_hosts file.
    public struct Entry: Sendable, Equatable {
        public enum Marker: Sendable, Equatable { case none, revoked, certAuthority }
        public let file: String
        public let line: Int
        public let marker: Marker
        public let patterns: String
        public let key: HostKey

        /// Whether the host field is hashed (`|1|…`): the name cannot be read back, only matched.
        public var isHashed: Bool { patterns.hasPrefix("|1|") }
    }

    /// What the files say about a server's key.
    public enum Verdict: Sendable, Equatable {
        /// A line holds exactly this key for this host.
        case match(Entry)
        /// Lines hold a different key of the same type for this host: the key changed (or someone is in between).
        case changed(known: [Entry])
        /// The key is marked `@revoked`.
        case revoked(Entry)
        /// No line holds a key of this type for this host; `otherTypes` lists keys of other types it has.
        case unknown(otherTypes: [Entry])
    }

    /// The file new keys are appended to (the user's).
    public let userFile: String
    /// Every entry read, user file first, then the global files.
    public private(set) var entries: [Entry] = []

    /// The largest known_hosts file read (a big organisation's is a few MiB).
    public static let sizeLimit = 64 << 20

    /// Reads `userFile` (missing is fine: nothing known yet) and `globalFiles` (e.g. /etc/ssh/ssh_known_hosts).
    /// Only regular files are read — never a FIFO (which would block) or a device (`/dev/zero` never ends) — and at
    /// most `sizeLimit` bytes each; `/dev/null` is an empty file, as OpenSSH's `UserKnownHostsFile=/dev/null`.
    public init(userFile: String, globalFiles: [String] = []) throws(SSHError) {
        self.userFile = userFile
        for file in [userFile] + globalFiles where file != "/dev/null" {
            let bytes: [UInt8]
            do throws(RegularFile.Failure) {
                bytes = try RegularFile.read(file, limit: Self.sizeLimit)
            } catch {
                if error.kind == .missing { continue }
                throw SSHError(.knownHostsFile, "\(file): \(error.reason)",
                               "The known hosts file \(file) \(error.reason).", remedy: .otherKnownHostsFile)
            }
            entries += Self.parse(String(decoding: bytes, as: UTF8.self), file: file)
        }
    }

    /// Parses known_hosts text; lines that are comments, blank or malformed are skipped as OpenSSH does.
    static func parse(_ text: String, file: String) -> [Entry] {
        var result: [Entry] = []
        var lineNumber = 0
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            var fields = rawLine.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })[...]
            guard let first = fields.first, !first.hasPrefix("#") else { continue }
            var marker = Entry.Marker.none
            if first.hasPrefix("@") {
                switch first {
                case "@revoked": marker = .revoked
                case "@cert-authority": marker = .certAuthority
                default: continue
                }
                fields = fields.dropFirst()
            }
            guard fields.count >= 3 else { continue }
            let patterns = String(fields[fields.startIndex])
            let type = String(fields[fields.startIndex + 1])
            guard let blob = Data(base64Encoded: String(fields[fields.startIndex + 2])),
                  let key = HostKey(blob: [UInt8](blob)), key.type == type || marker == .revoked else { continue }
            result.append(Entry(file: file, line: lineNumber, marker: marker, patterns: patterns, key: key))
        }
        return result
    }

    /// The name OpenSSH looks up: `host` for port 22, `[host]:port` otherwise.
    public static func lookupName(host: String, port: Int) -> String {
        port == 22 ? host.lowercased() : "[\(host.lowercased())]:\(port)"
    }

    /// Every usable (not CA) entry whose patterns match this host and port.
    public func entries(host: String, port: Int) -> [Entry] {
        let name = Self.lookupName(host: host, port: port)
        return entries.filter { $0.marker != .certAuthority && Self.patternsMatch($0.patterns, name) }
    }

    /// The key types known for a host, for ordering the host-key algorithm preference so a stored key is found.
    public func knownTypes(host: String, port: Int) -> [String] {
        var seen: [String] = []
        for e in entries(host: host, port: port) where e.marker == .none && !seen.contains(e.key.type) {
            seen.append(e.key.type)
        }
        return seen
    }

    /// Judges the key a server presented.
    public func verify(host: String, port: Int, key: HostKey) -> Verdict {
        let candidates = entries(host: host, port: port)
        // A revoked key is refused wherever it appears, whatever host it was written for.
        if let revoked = entries.first(where: { $0.marker == .revoked && $0.key.blob == key.blob }) {
            return .revoked(revoked)
        }
        let sameType = candidates.filter { $0.marker == .none && $0.key.type == key.type }
        if let hit = sameType.first(where: { $0.key.blob == key.blob }) { return .match(hit) }
        if !sameType.isEmpty { return .changed(known: sameType) }
        return .unknown(otherTypes: candidates.filter { $0.marker == .none })
    }

    /// The entries holding exactly `key` under names that are not this host's (OpenSSH's "This host key is known by
    /// the following other names/addresses"): an unknown host whose key is already trusted as another name or
    /// address is most likely that same server. Revoked and CA lines are not names.
    public func otherNames(for key: HostKey, host: String, port: Int) -> [Entry] {
        let name = Self.lookupName(host: host, port: port)
        return entries.filter { $0.marker == .none && $0.key.blob == key.blob && !Self.patternsMatch($0.patterns, name) }
    }

    /// Appends a key for this host to the user's file (creating it and its folder privately if missing). With
    /// `hashed`, the host name is written as OpenSSH's `HashKnownHosts yes` does. Writes only into a regular file
    /// the user owns; through a symbolic link only when the file it leads to reads as a known_hosts file (so a link
    /// to /etc/passwd, say, is never written into). `/dev/null` keeps nothing, as with OpenSSH.
    public mutating func append(host: String, port: Int, key: HostKey, hashed: Bool) throws(SSHError) {
        if userFile == "/dev/null" { return }
        let name = Self.lookupName(host: host, port: port)
        let hostField = hashed ? Self.hashedPattern(name) : name
        let line = "\(hostField) \(key.openSSHText)\n"
        let dir = (userFile as NSString).deletingLastPathComponent
        if !dir.isEmpty && !FileManager.default.fileExists(atPath: dir) {
            do {
                try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true,
                                                        attributes: [.posixPermissions: 0o700])
            } catch {
                let failure = FileSystemError(error, path: dir, action: "create the folder")
                    ?? FileSystemError(path: dir, errno: 0, action: "create the folder")
                throw SSHError(.knownHostsFile, failure.detail, failure.message
                                   + " The host key was not saved; nothing was sent to the server.")
            }
        }
        // O_NONBLOCK: a FIFO put in its place must not hold the connection; it is refused just below.
        let fd = open(userFile, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC | O_NONBLOCK | O_NOCTTY, 0o600)
        guard fd >= 0 else {
            throw SSHError(.knownHostsFile, String(cString: strerror(errno)),
                           "Cannot save the host key in \(userFile) (\(String(cString: strerror(errno)))): "
                               + "check that the file is writable.")
        }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, st.st_uid == geteuid() else {
            throw SSHError(.knownHostsFile, "not a regular file of ours", """
                The host key was not saved: \(userFile) is not a regular file you own. Nothing was sent to the \
                server.
                """, remedy: .otherKnownHostsFile)
        }
        var linkInfo = stat()
        if lstat(userFile, &linkInfo) == 0, (linkInfo.st_mode & S_IFMT) == S_IFLNK {
            let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: userFile)) ?? "?"
            let text = (try? RegularFile.text(userFile, limit: Self.sizeLimit)) ?? ""
            if let bad = Self.firstForeignLine(text) {
                throw SSHError(.knownHostsFile, "link to a file that is not known_hosts", """
                    The host key was not saved: \(userFile) links to \(target), whose line \(bad) is not a host key \
                    line, so it is not a known_hosts file; eSSH does not write into it. Nothing was sent to the \
                    server.
                    """, remedy: .otherKnownHostsFile)
            }
        }
        var text = line
        // Keep the file line-structured if its last line lacks a newline.
        if st.st_size > 0 {
            var last: UInt8 = 0
            if pread(fd, &last, 1, off_t(st.st_size - 1)) == 1, last != UInt8(ascii: "\n") { text = "\n" + text }
        }
        let bytes = Array(text.utf8)
        guard bytes.withUnsafeBytes({ writeAll(fd, $0) }) else {
            throw SSHError(.knownHostsFile, String(cString: strerror(errno)),
                           "Saving the host key in \(userFile) failed: \(String(cString: strerror(errno))).")
        }
        let lineNumber = ((try? RegularFile.text(userFile, limit: Self.sizeLimit)) ?? "")
            .split(separator: "\n", omittingEmptySubsequences: false).count
        entries.insert(Entry(file: userFile, line: max(lineNumber - 1, 1), marker: .none, patterns: hostField,
                             key: key), at: 0)
    }

    /// The number of the first line that is neither blank, a comment, nor a host key line as `parse` reads them
    /// (nil: the text reads as a known_hosts file).
    static func firstForeignLine(_ text: String) -> Int? {
        var number = 0
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            number += 1
            let trimmed = raw.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            if parse(String(raw), file: "").isEmpty { return number }
        }
        return nil
    }

    /// Replaces the entries read (unit tests build known_hosts contents without files).
    mutating func setEntriesForTesting(_ list: [Entry]) { entries = list }

    // MARK: - Matching as OpenSSH does (match.c semantics, written afresh)

    /// A comma-separated pattern list matches when some positive pattern matches and no negated one does.
    static func patternsMatch(_ list: String, _ name: String) -> Bool {
        if list.hasPrefix("|1|") { return hashedMatches(list, name) }
        var matched = false
        for raw in list.split(separator: ",") {
            let negated = raw.hasPrefix("!")
            let pattern = (negated ? raw.dropFirst() : raw[...]).lowercased()
            if WildcardPattern.matches(pattern, name) {
                if negated { return false }
                matched = true
            }
        }
        return matched
    }

    /// `|1|base64(salt)|base64(HMAC-SHA1(salt, name))`.
    static func hashedMatches(_ field: String, _ name: String) -> Bool {
        let parts = field.split(separator: "|", omittingEmptySubsequences: true)
        guard parts.count == 3, parts[0] == "1", let salt = Data(base64Encoded: String(parts[1])),
              let hash = Data(base64Encoded: String(parts[2])) else { return false }
        let mac = HMAC<Insecure.SHA1>.authenticationCode(for: Data(name.utf8), using: SymmetricKey(data: salt))
        return Data(mac) == hash
    }

    static func hashedPattern(_ name: String) -> String {
        var salt = [UInt8](repeating: 0, count: 20)
        var rng = SystemRandomNumberGenerator()
        for i in salt.indices { salt[i] = rng.next() }
        let mac = HMAC<Insecure.SHA1>.authenticationCode(for: Data(name.utf8), using: SymmetricKey(data: salt))
        return "|1|\(Data(salt).base64EncodedString())|\(Data(mac).base64EncodedString())"
    }
}
