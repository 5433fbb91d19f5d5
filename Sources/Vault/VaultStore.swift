import Basics
import Foundation
import LocalProcess

/// The vault file's edge: `$XDG_DATA_HOME/essh/vault.age` (0600, folder 0700), read whole, written whole.
///
/// Every write is a read-modify-write under an exclusive `flock` on `vault.age.lock` beside it: the current file is
/// read again under the lock (another process may have written since this one unlocked) and opened with the kept
/// key, the change applied, the result written to a temporary file in the same folder, fsynced, renamed over the
/// vault and the folder fsynced. A crash leaves the old or the new vault; a full disk leaves the old one. A file
/// that does not open (cut short, changed, empty, another passphrase, over the work-factor limit) is refused before
/// anything is written, so it is left byte for byte as it was.
public struct VaultStore: Sendable {
    /// The largest vault file read (a vault of a thousand servers is a few hundred kilobytes).
    public static let maxFileSize = 64 << 20
    /// The vault file.
    public let path: String
    /// The highest work factor accepted when reading.
    public let maxReadWorkFactor: Int

    /// A store at `path`.
    public init(path: String, maxReadWorkFactor: Int = VaultParameters.maxReadWorkFactor) {
        self.path = path
        self.maxReadWorkFactor = maxReadWorkFactor
    }

    /// `$XDG_DATA_HOME/essh/vault.age` (`~/.local/share/essh/vault.age`), beside the database.
    public static func defaultPath(environment: [String: String]) -> String {
        XDGDirectories.esshData(environment: environment) + "/vault.age"
    }

    /// The folder the vault is in.
    public var folder: String { (path as NSString).deletingLastPathComponent }
    /// The lock file writers hold (never removed: removing a lock file races with its next user).
    public var lockPath: String { path + ".lock" }

    /// True when a file (of any kind) is at `path`.
    public var exists: Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    // MARK: - Reading

    /// Opens the vault with `passphrase` (one scrypt run): the key to keep and the document.
    public func unlock(passphrase: [UInt8]) throws(VaultError) -> (key: AgeKey, document: VaultDocument) {
        let file = try readFile()
        let unlocked: (key: AgeKey, plaintext: [UInt8])
        do {
            unlocked = try AgeFile.unlock(file, passphrase: passphrase, maxWorkFactor: maxReadWorkFactor)
        } catch { throw .cannotOpen(path: path, error) }
        var plaintext = unlocked.plaintext
        defer { Wipe.bytes(&plaintext) }
        return (unlocked.key, try VaultDocument.decode(plaintext))
    }

    /// The document, opened with a kept key (no scrypt).
    public func read(with key: AgeKey) throws(VaultError) -> VaultDocument {
        try open(try readFile(), key: key)
    }

    /// The work factor the vault file asks for, read from its header without a passphrase (nil when unreadable).
    public func storedWorkFactor() -> Int? {
        guard let file = try? readFile(), let header = try? AgeFile.parseHeader(file),
              header.stanzas.count == 1, header.stanzas[0].arguments.count == 3
        else { return nil }
        return Int(header.stanzas[0].arguments[2])
    }

    // MARK: - Writing

    /// Makes a new, empty vault under `key` (from `AgeFile.makeKey`); refuses when one is there.
    public func create(key: AgeKey) throws(VaultError) {
        try makeFolder()
        try withLock { () throws(VaultError) in
            if exists { throw .exists(path: path) }
            try write(VaultDocument(), key: key, to: path)
        }
    }

    /// Changes the document under the lock: re-reads the current file with `key`, applies `change`, writes it back
    /// atomically. Returns the document written. Nothing is written when the file does not open or `change` throws.
    @discardableResult
    public func update(with key: AgeKey, _ change: (inout VaultDocument) throws(VaultError) -> Void)
        throws(VaultError) -> VaultDocument
    {
        try withLock { () throws(VaultError) -> VaultDocument in
            var document = try open(try readFile(), key: key)
            try change(&document)
            try write(document, key: key, to: path)
            return document
        }
    }

    /// Re-encrypts the vault under `newKey` (a new passphrase: new file key, salt and stanza), under the lock, after
    /// opening the current file with `key`.
    public func changeKey(from key: AgeKey, to newKey: AgeKey) throws(VaultError) {
        try withLock { () throws(VaultError) in
            let document = try open(try readFile(), key: key)
            try write(document, key: newKey, to: path)
        }
    }

    /// Writes a standalone copy of the vault to `destination` (0600; an existing file there is refused), consistent
    /// because it is taken under the lock: an age file `age -d` opens with the vault's passphrase.
    public func exportCopy(with key: AgeKey, to destination: String) throws(VaultError) {
        var info = stat()
        if lstat(destination, &info) == 0 {
            throw .file(FileSystemError(path: destination, errno: EEXIST, action: "create"))
        }
        try withLock { () throws(VaultError) in
            let document = try open(try readFile(), key: key)
            try write(document, key: key, to: destination)
        }
    }

    // MARK: - The file

    func readFile() throws(VaultError) -> [UInt8] {
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        if fd < 0 {
            if errno == ENOENT { throw .missing(path: path) }
            throw .file(FileSystemError(path: path, errno: errno, action: "open"))
        }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = Glibc.read(fd, &buffer, buffer.count)
            if n < 0 {
                if errno == EINTR { continue }
                throw .file(FileSystemError(path: path, errno: errno, action: "read"))
            }
            if n == 0 { break }
            bytes += buffer[0..<n]
            if bytes.count > Self.maxFileSize { throw .tooLarge(path: path, limit: Self.maxFileSize) }
        }
        return bytes
    }

    func open(_ file: [UInt8], key: AgeKey) throws(VaultError) -> VaultDocument {
        var plaintext: [UInt8]
        do {
            plaintext = try key.open(file)
        } catch { throw .cannotOpen(path: path, error) }
        defer { Wipe.bytes(&plaintext) }
        return try VaultDocument.decode(plaintext)
    }

    /// The folder, made 0700 (and made 0700 if it was wider: the database beside the vault is private too).
    func makeFolder() throws(VaultError) {
        var parts: [String] = []
        var current = folder
        while !current.isEmpty && current != "/" && !FileManager.default.fileExists(atPath: current) {
            parts.append(current)
            current = (current as NSString).deletingLastPathComponent
        }
        for part in parts.reversed() where mkdir(part, 0o700) != 0 && errno != EEXIST {
            throw .file(FileSystemError(path: part, errno: errno, action: "create the folder"))
        }
        var info = stat()
        guard lstat(folder, &info) == 0 else {
            throw .file(FileSystemError(path: folder, errno: errno, action: "open the folder"))
        }
        guard info.st_mode & S_IFMT == S_IFDIR, info.st_uid == getuid() else {
            throw .unsafe(path: folder, "is not a folder of yours; the vault is not kept there.")
        }
        if info.st_mode & 0o077 != 0 && chmod(folder, 0o700) != 0 {
            throw .file(FileSystemError(path: folder, errno: errno, action: "make private (0700)"))
        }
    }

    func withLock<R>(_ body: () throws(VaultError) -> R) throws(VaultError) -> R {
        let fd = Glibc.open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw .file(FileSystemError(path: lockPath, errno: errno, action: "open the lock file")) }
        defer { close(fd) }  // closing releases the lock
        while flock(fd, LOCK_EX) != 0 {
            if errno != EINTR { throw .file(FileSystemError(path: lockPath, errno: errno, action: "lock")) }
        }
        removeOrphans()
        return try body()
    }

    /// Temporary files of writers killed mid-write. Called under the lock, when no writer of this folder is between
    /// its temporary file and its rename, so every one there is an orphan.
    func removeOrphans() {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where name.hasPrefix(".vault-") {
            unlink(folder + "/" + name)
        }
    }

    /// Seals `document` and writes it to `destination` through a temporary file in the same folder: write, fsync,
    /// rename, fsync the folder. On any failure the temporary file is removed and `destination` is untouched.
    func write(_ document: VaultDocument, key: AgeKey, to destination: String) throws(VaultError) {
        var plaintext = document.encoded()
        let sealed = key.seal(plaintext)
        Wipe.bytes(&plaintext)
        let parent = (destination as NSString).deletingLastPathComponent
        let directory = parent.isEmpty ? "." : parent  // a bare file name: the current folder
        var template = Array((directory + "/.vault-XXXXXX").utf8CString)
        let fd = CloseOnExec.temporaryFile(&template)
        guard fd >= 0 else {
            throw .file(FileSystemError(path: directory, errno: errno, action: "create a file in"))
        }
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        func fail(_ code: Int32, _ action: String) -> VaultError {
            close(fd)
            unlink(temporary)
            return .file(FileSystemError(path: destination, errno: code, action: action))
        }
        if fchmod(fd, 0o600) != 0 { throw fail(errno, "make private (0600)") }
        let written = sealed.withUnsafeBytes { writeAll(fd, $0) }
        if !written { throw fail(errno, "write") }
        if fsync(fd) != 0 { throw fail(errno, "write (fsync)") }
        if close(fd) != 0 {
            unlink(temporary)
            throw .file(FileSystemError(path: destination, errno: errno, action: "write (close)"))
        }
        if rename(temporary, destination) != 0 {
            let code = errno
            unlink(temporary)
            throw .file(FileSystemError(path: destination, errno: code, action: "replace"))
        }
        let folderFD = Glibc.open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folderFD >= 0 {
            fsync(folderFD)
            close(folderFD)
        }
    }
}
