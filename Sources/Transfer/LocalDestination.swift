import Foundation

/// The folder a download writes into, held open for the whole copy. Every folder, partial, file and link of the copy
/// is made relative to it, one component at a time with `O_NOFOLLOW` (`openat`, `mkdirat`, `symlinkat`, `linkat`,
/// `renameat`), never through a path resolved again later: no name a server listed and no link found on the way — one
/// another user planted, or one this copy made from the listing — can send a write outside the tree.
final class LocalDestination: Sendable {
    /// The path the user named (or the folder of the new name they gave), as shown in sentences.
    let rootPath: [UInt8]
    private let rootFD: Int32

    init(root: [UInt8]) throws(TransferError) {
        rootPath = root
        let fd = open(try LocalFiles.cPath(root.isEmpty ? [0x2E] : root), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw LocalFiles.error("open the folder", root) }
        rootFD = fd
    }

    deinit { close(rootFD) }

    /// The components of `path` below the root; each must be one file name (`PathBytes.componentProblem`).
    func components(of path: [UInt8]) throws(TransferError) -> [[UInt8]] {
        var rest = path[...]
        if !rootPath.isEmpty {
            guard path.starts(with: rootPath) else {
                throw TransferError(.localFile, "\(PathBytes.shown(path)) is not inside "
                                    + "\(PathBytes.shown(rootPath)): nothing is written there.")
            }
            rest = path[rootPath.count...]
        }
        let parts = rest.split(separator: PathBytes.slash, omittingEmptySubsequences: true).map(Array.init)
        guard !parts.isEmpty else {
            throw TransferError(.localFile, "\(PathBytes.shown(path)) names no file inside "
                                + "\(PathBytes.shown(rootPath)).")
        }
        for part in parts {
            if let problem = PathBytes.componentProblem(part) {
                throw TransferError(.localFile, "\(PathBytes.shown(path)) holds \(problem): it is not written.")
            }
        }
        return parts
    }

    /// The folder holding `path` (opened without following any link) and the last component.
    /// With `held`, a lane's last folder is used again for the next file in it (a tree's files come folder by
    /// folder), and the descriptor stays with `held`.
    func place(_ path: [UInt8], held: HeldFolder? = nil) throws(TransferError) -> Place {
        let parts = try components(of: path)
        let folderParts = Array(parts.dropLast())
        if let held, held.fd >= 0, held.parts == folderParts {
            return Place(folder: held.fd, owned: false, name: parts.last!, path: path)
        }
        let fd = try openFolder(folderParts[...], shownAs: path)
        guard let held else { return Place(folder: fd, owned: true, name: parts.last!, path: path) }
        held.hold(folderParts, fd)
        return Place(folder: fd, owned: false, name: parts.last!, path: path)
    }

    /// One lane's last folder, open (used by that lane's thread only).
    final class HeldFolder {
        fileprivate(set) var parts: [[UInt8]] = []
        fileprivate(set) var fd: Int32 = -1

        init() {}

        fileprivate func hold(_ parts: [[UInt8]], _ fd: Int32) {
            if self.fd >= 0 { Glibc.close(self.fd) }
            self.parts = parts
            self.fd = fd
        }

        deinit { if fd >= 0 { Glibc.close(fd) } }
    }

    /// Opens the folder `parts` below the root, each step with `O_NOFOLLOW|O_DIRECTORY`.
    private func openFolder(_ parts: ArraySlice<[UInt8]>, shownAs path: [UInt8]) throws(TransferError) -> Int32 {
        var current = openat(rootFD, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard current >= 0 else { throw LocalFiles.error("open the folder", rootPath) }
        var walked = rootPath
        for part in parts {
            walked = PathBytes.join(walked, part)
            let next = try LocalFiles.cPath(part).withUnsafeBufferPointer { p in
                openat(current, p.baseAddress!, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            }
            let code = errno
            close(current)
            guard next >= 0 else {
                if code == ELOOP || code == ENOTDIR {
                    throw TransferError(.localFile, "\(PathBytes.shown(walked)) on this machine is not a folder (a "
                                        + "symbolic link or a file is there): nothing is written through it.")
                }
                throw LocalFiles.error("open the folder", walked, code)
            }
            current = next
        }
        return current
    }

    /// Makes the folder `path` (an existing folder is kept; anything else there is refused). True when it was made.
    func makeDirectory(_ path: [UInt8], mode: UInt32) throws(TransferError) -> Bool {
        let place = try place(path)
        defer { place.close() }
        let name = try LocalFiles.cPath(place.name)
        if mkdirat(place.folder, name, mode_t(mode)) == 0 { return true }
        let code = errno
        guard code == EEXIST else { throw LocalFiles.error("make the folder", path, code) }
        let existing = place.existing()
        guard existing?.kind == .directory else {
            throw TransferError(.localFile, "\(PathBytes.shown(path)) on this machine is "
                                + "\(existing?.kindWords ?? "in the way"), not a folder: it is not replaced.")
        }
        return false
    }

    /// Makes the symbolic link `path` pointing at `target` (the link itself, never followed). An older link of the
    /// same name is replaced; anything else there is kept and the link refused.
    func makeLink(_ path: [UInt8], target: [UInt8]) throws(TransferError) {
        let place = try place(path)
        defer { place.close() }
        let name = try LocalFiles.cPath(place.name)
        if let existing = place.existing() {
            guard existing.kind == .symlink else {
                throw TransferError(.localFile, "\(PathBytes.shown(path)) on this machine is \(existing.kindWords): "
                                    + "it is not replaced by a link.")
            }
            guard unlinkat(place.folder, name, 0) == 0 else { throw LocalFiles.error("replace the link", path) }
        }
        guard symlinkat(try LocalFiles.cPath(target), place.folder, name) == 0 else {
            throw LocalFiles.error("make the link", path)
        }
    }

    /// -p on a folder of the tree: its mode and times, set through a descriptor opened without following links.
    func setFolderAttributes(_ path: [UInt8], _ info: FileInfo) {
        guard let parts = try? components(of: path), let fd = try? openFolder(parts[...], shownAs: path) else { return }
        defer { close(fd) }
        fchmod(fd, mode_t(info.mode))
        var times = [timespec(tv_sec: Int(info.accessed), tv_nsec: 0), timespec(tv_sec: Int(info.modified), tv_nsec: 0)]
        futimens(fd, &times)
    }

    /// One file's folder (held open) and name.
    struct Place {
        let folder: Int32
        /// Whether `close()` closes `folder` (not when a `HeldFolder` keeps it).
        let owned: Bool
        let name: [UInt8]
        /// The whole destination path, for sentences.
        let path: [UInt8]

        func close() { if owned { Glibc.close(folder) } }

        /// What is at `name` (a link not followed), or nil.
        func existing(_ other: [UInt8]? = nil) -> FileInfo? {
            guard let c = try? LocalFiles.cPath(other ?? name) else { return nil }
            var st = stat()
            guard fstatat(folder, c, &st, AT_SYMLINK_NOFOLLOW) == 0 else { return nil }
            return LocalFiles.info(st)
        }

        /// Why the destination may not be replaced by a copy (nil: nothing there, or a regular file).
        func refusal() -> String? {
            guard let existing = existing(), existing.kind != .regular else { return nil }
            if existing.kind == .directory {
                return "\(PathBytes.shown(path)) on this machine is a folder: a file is not written over it."
            }
            return "\(PathBytes.shown(path)) on this machine is \(existing.kindWords): eSSH writes regular files "
                + "only and does not replace it" + (existing.kind == .symlink ? " or write through it." : ".")
        }

        /// A new partial file, 0600 and never through a link: `O_CREAT|O_EXCL|O_NOFOLLOW`. An older partial of the
        /// same name that is this user's own regular file is replaced; anything else there is left alone and a fresh
        /// name is used (answered with the file descriptor and the name written).
        func createPartial(_ partial: [UInt8]) throws(TransferError) -> (fd: Int32, name: [UInt8], note: String?) {
            var name = partial
            var note: String?
            for attempt in 0..<8 {
                let c = try LocalFiles.cPath(name)
                let fd = openat(folder, c, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
                if fd >= 0 { return (fd, name, note) }
                let code = errno
                guard code == EEXIST else {
                    throw LocalFiles.error("write", PathBytes.join(PathBytes.directoryName(path), name), code)
                }
                if attempt == 0, isOwnPartial(name) {
                    guard unlinkat(folder, c, 0) == 0 else { throw LocalFiles.error("replace", name) }
                    continue
                }
                if note == nil { note = foreignPartial(name) }
                name = PartialName.fresh(for: self.name)
            }
            throw TransferError(.localFile, "No partial file could be made beside \(PathBytes.shown(path)).")
        }

        /// An existing partial for --resume, opened read-write without following a link. Nil when none; `.foreign`
        /// when something is there that is not this user's own regular file (never opened).
        func openPartial(_ partial: [UInt8]) throws(TransferError) -> ExistingPartial? {
            let c = try LocalFiles.cPath(partial)
            let fd = openat(folder, c, O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
            if fd < 0 {
                if errno == ENOENT { return nil }
                return .foreign(foreignPartial(partial))
            }
            var st = stat()
            guard fstat(fd, &st) == 0, LocalFiles.info(st).kind == .regular, st.st_uid == geteuid(),
                  st.st_nlink == 1 else {
                Glibc.close(fd)
                return .foreign(foreignPartial(partial))
            }
            _ = fcntl(fd, F_SETFL, 0)
            return .own(fd: fd, size: Int64(st.st_size))
        }

        enum ExistingPartial {
            case own(fd: Int32, size: Int64)
            case foreign(String)
        }

        /// Whether `partial` is this user's own regular file with one link (safe to remove).
        func isOwnPartial(_ partial: [UInt8]) -> Bool {
            guard let c = try? LocalFiles.cPath(partial) else { return false }
            var st = stat()
            return fstatat(folder, c, &st, AT_SYMLINK_NOFOLLOW) == 0 && LocalFiles.info(st).kind == .regular
                && st.st_uid == geteuid() && st.st_nlink == 1
        }

        /// Removes `partial` if it is this user's own (stale partials, a failed copy's).
        func removeOwn(_ partial: [UInt8]) {
            guard isOwnPartial(partial), let c = try? LocalFiles.cPath(partial) else { return }
            _ = unlinkat(folder, c, 0)
        }

        private func foreignPartial(_ partial: [UInt8]) -> String {
            let what = existing(partial).map { $0.kind == .regular ? "a file that is not your own" : $0.kindWords }
                ?? "something that cannot be opened"
            return "the partial copy \(PathBytes.shown(partial)) is \(what): it was not opened, and a fresh copy was "
                + "started under another name"
        }

        /// The names in the folder (for stale partials).
        func names() -> [[UInt8]] {
            let fd = openat(folder, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard fd >= 0, let dir = fdopendir(fd) else { return [] }
            defer { closedir(dir) }
            var out: [[UInt8]] = []
            while let entry = readdir(dir) {
                out.append(withUnsafeBytes(of: entry.pointee.d_name) { raw in Array(raw.prefix { $0 != 0 }) })
            }
            return out
        }

        /// Puts the finished partial in place: linked to the name where nothing is there (so a file that appeared
        /// meanwhile is never replaced), renamed over a regular file, refused over anything else.
        func put(_ partial: [UInt8]) throws(TransferError) {
            let from = try LocalFiles.cPath(partial), to = try LocalFiles.cPath(name)
            if linkat(folder, from, folder, to, 0) == 0 {
                _ = unlinkat(folder, from, 0)
                return
            }
            // A name that is taken (only a regular file is replaced, as scp does), or a file system without hard
            // links.
            if let refusal = refusal() { throw TransferError(.localFile, refusal) }
            if renameat(folder, from, folder, to) == 0 { return }
            throw LocalFiles.error("put the copy in place at", path)
        }
    }
}
