import Foundation

/// The same operations on this machine (the Files screen's left pane, and the local side of a copy); no state.
public struct LocalFiles: Sendable {
    public init() {}

    /// $HOME, else the password database's, else `/`.
    public func home() -> [UInt8] {
        if let home = getenv("HOME"), home.pointee != 0 { return Array(String(cString: home).utf8) }
        if let pw = getpwuid(getuid()), let dir = pw.pointee.pw_dir { return Array(String(cString: dir).utf8) }
        return [PathBytes.slash]
    }

    public func realPath(_ path: [UInt8]) throws(TransferError) -> [UInt8] {
        let p = try Self.cPath(path.isEmpty ? [0x2E] : path)
        guard let resolved = realpath(p, nil) else { throw Self.error("resolve", path) }
        defer { free(resolved) }
        return Array(UnsafeBufferPointer(start: UnsafeRawPointer(resolved).assumingMemoryBound(to: UInt8.self),
                                         count: strlen(resolved)))
    }

    public func list(_ directory: [UInt8]) throws(TransferError) -> [FileEntry] {
        let dirPath = directory.isEmpty ? [0x2E] : directory
        guard let dir = opendir(try Self.cPath(dirPath)) else { throw Self.error("list", dirPath) }
        defer { closedir(dir) }
        var out: [FileEntry] = []
        while let entry = readdir(dir) {
            let name: [UInt8] = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                Array(raw.prefix { $0 != 0 })
            }
            if name == [0x2E] || name == [0x2E, 0x2E] { continue }
            let path = PathBytes.join(dirPath, name)
            var st = stat()
            guard lstat(try Self.cPath(path), &st) == 0 else { continue }  // gone since readdir
            let info = Self.info(st)
            out.append(FileEntry(name: name, info: info, owner: Self.owner(st.st_uid),
                                 linkTarget: info.kind == .symlink ? try? readLink(path) : nil))
        }
        return out
    }

    /// Nil: nothing there (a dangling link followed is nothing too).
    public func info(_ path: [UInt8], followLinks: Bool = true) throws(TransferError) -> FileInfo? {
        var st = stat()
        let p = try Self.cPath(path.isEmpty ? [0x2E] : path)
        let rc = followLinks ? stat(p, &st) : lstat(p, &st)
        if rc != 0 {
            if errno == ENOENT || errno == ENOTDIR { return nil }
            throw Self.error("read", path)
        }
        return Self.info(st)
    }

    public func readLink(_ path: [UInt8]) throws(TransferError) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX) + 1)
        let p = try Self.cPath(path)
        let n = buffer.withUnsafeMutableBufferPointer { b in
            Glibc.readlink(p, UnsafeMutableRawPointer(b.baseAddress!).assumingMemoryBound(to: CChar.self), b.count)
        }
        guard n >= 0 else { throw Self.error("read the link", path) }
        return Array(buffer.prefix(n))
    }

    public func makeDirectory(_ path: [UInt8], mode: UInt32 = 0o755) throws(TransferError) {
        guard mkdir(try Self.cPath(path), mode_t(mode)) == 0 else { throw Self.error("make the folder", path) }
    }

    /// Refuses to replace an existing file.
    public func rename(_ from: [UInt8], to: [UInt8]) throws(TransferError) {
        if try info(to, followLinks: false) != nil {
            throw TransferError(.localFile, "\(PathBytes.shown(to)) already exists on this machine: choose another "
                                + "name or remove it first.")
        }
        guard Glibc.rename(try Self.cPath(from), try Self.cPath(to)) == 0 else { throw Self.error("rename", from) }
    }

    public func remove(_ path: [UInt8], recursive: Bool) throws(TransferError) {
        guard let i = try info(path, followLinks: false) else {
            throw TransferError(.localFile, "Cannot remove \(PathBytes.shown(path)) on this machine: no such file or "
                                + "folder.")
        }
        if i.kind == .directory {
            if recursive {
                for entry in try list(path) { try remove(PathBytes.join(path, entry.name), recursive: true) }
            }
            guard rmdir(try Self.cPath(path)) == 0 else { throw Self.error("remove the folder", path) }
        } else {
            guard unlink(try Self.cPath(path)) == 0 else { throw Self.error("remove", path) }
        }
    }

    public func changeMode(_ path: [UInt8], to mode: UInt32) throws(TransferError) {
        guard chmod(try Self.cPath(path), mode_t(mode & 0o7777)) == 0 else {
            throw Self.error("change the mode of", path)
        }
    }

    /// The first `limit` bytes of a regular file; anything else (a FIFO would block) is refused before reading.
    public func readPrefix(_ path: [UInt8], limit: Int) throws(TransferError) -> [UInt8] {
        let fd = open(try Self.cPath(path), O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw Self.error("open", path) }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw Self.error("read", path) }
        guard Self.info(st).kind == .regular else {
            throw TransferError(.localFile, "\(PathBytes.shown(path)) is \(Self.info(st).kindWords), not a regular "
                                + "file.")
        }
        var out = [UInt8](repeating: 0, count: max(limit, 0))
        var got = 0
        while got < out.count {
            let n = out.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + got, $0.count - got) }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { throw Self.error("read", path) }
            if n == 0 { break }
            got += n
        }
        return Array(out.prefix(got))
    }

    // MARK: - Shared with the runner

    /// The process's umask, read without changing it (umask(2) would, for every thread at once).
    static let umask: UInt32 = {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix("Umask:") }),
              let value = UInt32(line.dropFirst(6).trimmingCharacters(in: .whitespaces), radix: 8) else { return 0o022 }
        return value
    }()

    static func info(_ st: stat) -> FileInfo {
        FileInfo(kind: FileInfo.kind(ofMode: UInt32(st.st_mode)), size: Int64(st.st_size),
                 mode: UInt32(st.st_mode) & 0o7777, modified: Int64(st.st_mtim.tv_sec),
                 accessed: Int64(st.st_atim.tv_sec))
    }

    static func owner(_ uid: uid_t) -> String {
        if let pw = getpwuid(uid), let name = pw.pointee.pw_name { return String(cString: name) }
        return String(uid)
    }

    /// A C string of the path; a NUL byte cannot be in one.
    /// The exact bytes, NUL-terminated (a Swift `String` would replace bytes that are not UTF-8).
    static func cPath(_ path: [UInt8]) throws(TransferError) -> [CChar] {
        guard !path.contains(0) else {
            throw TransferError(.badInput, "A path cannot hold a NUL byte: \(PathBytes.shown(path)).")
        }
        return path.map { CChar(bitPattern: $0) } + [0]
    }

    /// errno as a sentence for `what` (a verb: "read", "make the folder") on `path`.
    static func error(_ what: String, _ path: [UInt8], _ code: Int32 = errno) -> TransferError {
        let reason: String
        switch code {
        case ENOENT: reason = "no such file or folder"
        case EACCES, EPERM: reason = "permission denied"
        case ENOSPC: reason = "no space left on this machine"
        case EEXIST: reason = "it already exists"
        case ENOTEMPTY: reason = "the folder is not empty"
        case ENOTDIR: reason = "a part of the path is not a folder"
        case EISDIR: reason = "it is a folder"
        default: reason = String(cString: strerror(code))
        }
        return TransferError(.localFile, "Cannot \(what) \(PathBytes.shown(path)) on this machine: \(reason).")
    }
}

extension LocalFiles: FileTree {
    public var placeName: String { "this machine" }

    /// Device and inode of the folder (nil when it cannot be read).
    public func folderIdentity(_ path: [UInt8]) -> String? {
        var st = stat()
        guard let p = try? Self.cPath(path.isEmpty ? [0x2E] : path), stat(p, &st) == 0 else { return nil }
        return "\(st.st_dev):\(st.st_ino)"
    }
}
