import Foundation

/// The checks made on the database file before SQLite may touch it, so that a file eSSH cannot safely use (not
/// SQLite, read-only) is refused without a single byte written, and a new file is born private.
enum DatabaseFile {
    enum State {
        /// No file yet: `Inventory` builds one under a temporary name and links it into place, whole.
        case missing
        case empty
        case existing
    }

    private static let sqliteHeader = Array("SQLite format 3\0".utf8)

    static func prepare(path: String) throws(InventoryError) -> State {
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty { try makeDirectory(directory) }
        var info = stat()
        if stat(path, &info) != 0 {
            guard errno == ENOENT else { throw ioError(path, errno) }
            return .missing
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw InventoryError(.io, "not a regular file", "\(path) is not a regular file; give --db a file path.")
        }
        // Root passes access(W_OK) on any file, so a file whose owner cannot write is read-only to us as well:
        // the user took the write bit away on purpose.
        if access(path, W_OK) != 0 || (info.st_mode & S_IWUSR) == 0 {
            throw InventoryError.readOnly(path: path, detail: "no write permission")
        }
        if access(path, R_OK) != 0 {
            throw InventoryError(.io, String(cString: strerror(errno)),
                                 "Cannot read the database \(path): check its permissions.")
        }
        if info.st_size == 0 { return .empty }
        guard let handle = FileHandle(forReadingAtPath: path) else { throw ioError(path, errno) }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: sqliteHeader.count)) ?? Data()
        if Array(head) != sqliteHeader {
            throw InventoryError.corrupt(path: path, detail: "file does not start with the SQLite header")
        }
        return .existing
    }

    /// Builds a new database at `path` atomically: `build` migrates a private file with a temporary name in the same
    /// folder, which is then hard-linked to `path` only if `path` still does not exist. So whoever opens `path`
    /// finds either nothing or a whole eSSH database, never one half made — many processes creating the same file
    /// at once each build their own and all but the first discard theirs.
    static func createAtomically(path: String, build: (String) throws -> Void) throws(InventoryError) {
        let directory = (path as NSString).deletingLastPathComponent
        var template = Array(((directory.isEmpty ? "." : directory) + "/.essh-new-XXXXXX.db").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemps($0.baseAddress!, 3) }
        guard fd >= 0 else { throw ioError(path, errno) }
        close(fd)
        let temporary = String(cString: template)
        defer {
            for suffix in ["", "-wal", "-shm", "-journal"] { unlink(temporary + suffix) }
        }
        do {
            try build(temporary)
        } catch let error as InventoryError {
            throw error
        } catch {
            throw InventoryError.wrap(error, path: path)
        }
        if link(temporary, path) == 0 || errno == EEXIST { return }
        // A file system without hard links: rename, which cannot refuse an existing name, so check just before.
        let linkError = errno
        guard linkError == EPERM || linkError == EOPNOTSUPP || linkError == ENOSYS else {
            throw ioError(path, linkError)
        }
        if access(path, F_OK) == 0 { return }
        if rename(temporary, path) != 0 { throw ioError(path, errno) }
    }

    /// Makes the folder (and missing parents) with mode 0700.
    static func makeDirectory(_ directory: String) throws(InventoryError) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) {
            if !isDirectory.boolValue {
                throw InventoryError(.io, "not a directory",
                                     "\(directory) is not a folder; the database cannot go there.")
            }
            return
        }
        let parent = (directory as NSString).deletingLastPathComponent
        if !parent.isEmpty && parent != directory { try makeDirectory(parent) }
        if mkdir(directory, 0o700) != 0 && errno != EEXIST { throw ioError(directory, errno) }
    }

    /// Whether a file is at `path`, touching nothing (commands that only read never create the database or its
    /// folder). Throws what opening would say when a folder on the way is a file, or the path cannot be looked at.
    static func exists(path: String) throws(InventoryError) -> Bool {
        var info = stat()
        if stat(path, &info) == 0 { return true }
        switch errno {
        case ENOENT:
            return false
        case ENOTDIR:
            var directory = (path as NSString).deletingLastPathComponent
            // The nearest folder on the way that is a file.
            while !directory.isEmpty && directory != "/" {
                var up = stat()
                if stat(directory, &up) == 0 && (up.st_mode & S_IFMT) != S_IFDIR { break }
                directory = (directory as NSString).deletingLastPathComponent
            }
            throw InventoryError(.io, "not a directory", "\(directory) is not a folder; the database cannot go there.")
        default:
            throw ioError(path, errno)
        }
    }

    /// SQLite gives -wal and -shm the main file's mode; this makes sure of 0600 whatever the umask did.
    static func tightenCompanions(path: String) {
        for suffix in ["-wal", "-shm"] {
            var info = stat()
            if stat(path + suffix, &info) == 0 && (info.st_mode & 0o077) != 0 { chmod(path + suffix, 0o600) }
        }
    }

    private static func ioError(_ path: String, _ code: Int32) -> InventoryError {
        let detail = String(cString: strerror(code))
        return InventoryError(.io, detail,
                              "Cannot create or open \(path): \(detail). Check the folder's permissions or use --db.")
    }
}
