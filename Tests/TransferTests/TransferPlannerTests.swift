import Testing
import Transfer

/// An in-memory tree: paths to kinds, for the planner without sockets.
struct MemoryTree: FileTree {
    enum Node: Sendable { case file(Int64), folder, link([UInt8]), fifo, socket }
    let nodes: [String: Node]
    let placeName: String

    init(_ place: String, _ nodes: [String: Node]) {
        placeName = place
        self.nodes = nodes
    }

    func info(_ path: [UInt8], followLinks: Bool) throws(TransferError) -> FileInfo? {
        var p = String(decoding: path, as: UTF8.self)
        while p.count > 1 && p.hasSuffix("/") { p.removeLast() }
        if p.isEmpty { p = "." }
        guard let node = nodes[p] else { return nil }
        switch node {
        case .file(let size): return FileInfo(kind: .regular, size: size, mode: 0o644, modified: 7, accessed: 7)
        case .folder: return FileInfo(kind: .directory, size: 0, mode: 0o755, modified: 7, accessed: 7)
        case .fifo: return FileInfo(kind: .fifo, size: 0, mode: 0o644, modified: 7, accessed: 7)
        case .socket: return FileInfo(kind: .socket, size: 0, mode: 0o644, modified: 7, accessed: 7)
        case .link(let target):
            if !followLinks { return FileInfo(kind: .symlink, size: 0, mode: 0o777, modified: 7, accessed: 7) }
            return try info(target, followLinks: true)
        }
    }

    func list(_ directory: [UInt8]) throws(TransferError) -> [FileEntry] {
        let prefix = String(decoding: directory, as: UTF8.self) + "/"
        return nodes.keys.filter { $0.hasPrefix(prefix) && !$0.dropFirst(prefix.count).contains("/") }.map { key in
            let name = Array(key.dropFirst(prefix.count).utf8)
            let info = (try? self.info(Array(key.utf8), followLinks: false)) ?? nil
            return FileEntry(name: name, info: info!, owner: "u")
        }
    }

    func readLink(_ path: [UInt8]) throws(TransferError) -> [UInt8] {
        guard case .link(let t)? = nodes[String(decoding: path, as: UTF8.self)] else {
            throw TransferError(.localFile, "not a link")
        }
        return t
    }
}

@Suite struct TransferPlannerTests {
    let here = MemoryTree("this machine", [
        "a": .file(10), "b": .file(20), "dir": .folder, "dir/x": .file(1), "dir/sub": .folder, "dir/sub/y": .file(2),
        "dir/ln": .link(Array("x".utf8)), "dir/pipe": .fifo, "alias": .link(Array("a".utf8)), "pipe": .fifo,
        "sock": .socket, "dangling": .link(Array("nothing".utf8)),
    ])
    let there = MemoryTree("web1", [".": .folder, "/srv": .folder, "/srv/file": .file(3), "/srv/d": .folder])

    func plan(_ sources: [String], _ dest: String, recursive: Bool = false) throws(TransferError) -> [String] {
        var o = TransferOptions()
        o.recursive = recursive
        let p = try TransferPlanner.plan(sources: sources.map { Array($0.utf8) }, destination: Array(dest.utf8),
                                         options: o, from: here, to: there)
        return p.items.map { item in
            let d = String(decoding: item.destination, as: UTF8.self)
            switch item.action {
            case .copyFile: return "copy \(d)"
            case .makeDirectory: return "mkdir \(d)"
            case .makeLink(let t): return "link \(d) -> \(String(decoding: t, as: UTF8.self))"
            case .skip(let r): return "skip \(d): \(r)"
            case .fail(let r): return "fail \(d): \(r)"
            }
        }
    }

    func refusal(_ sources: [String], _ dest: String, recursive: Bool = false) -> TransferError? {
        do throws(TransferError) {
            _ = try plan(sources, dest, recursive: recursive)
            return nil
        } catch {
            return error
        }
    }

    @Test func anExistingFolderMeansIntoIt() throws {
        #expect(try plan(["a"], "/srv") == ["copy /srv/a"])
        #expect(try plan(["a", "b"], "/srv/") == ["copy /srv/a", "copy /srv/b"])
        #expect(try plan(["a"], "") == ["copy a"])  // the login folder
    }

    @Test func aMissingDestinationWithOneSourceIsTheNewNameAndAFileIsReplaced() throws {
        #expect(try plan(["a"], "/srv/new") == ["copy /srv/new"])
        #expect(try plan(["a"], "/srv/file") == ["copy /srv/file"])
    }

    @Test func scpRulesRefuseBeforeAnythingIsCopied() {
        #expect(refusal(["a", "b"], "/srv/file")
                == TransferError(.usage, "/srv/file on web1 is a file, not a folder: copying several sources needs a folder."))
        #expect(refusal(["a", "b"], "/srv/none")
                == TransferError(.usage, "There is no folder /srv/none on web1 to copy 2 sources into: make it first."))
        #expect(refusal(["a"], "/srv/none/")
                == TransferError(.usage, "There is no folder /srv/none/ on web1: make it first, or leave out the trailing /."))
        #expect(refusal(["dir"], "/srv/file", recursive: true)
                == TransferError(.usage, "/srv/file on web1 is a file: a folder cannot be copied onto it."))
        #expect(refusal([], "/srv")?.kind == .usage)
    }

    @Test func aFolderNeedsRecursiveAndIsWalkedWithLinksAndSpecialFiles() throws {
        #expect(try plan(["dir"], "/srv") == ["skip /srv/dir: dir is a folder: add -r to copy it and what it holds."])
        #expect(try plan(["dir"], "/srv", recursive: true) == [
            "mkdir /srv/dir", "link /srv/dir/ln -> x", "skip /srv/dir/pipe: dir/pipe is not a regular file (a FIFO): skipped.",
            "mkdir /srv/dir/sub", "copy /srv/dir/sub/y", "copy /srv/dir/x",
        ])
        // A new name for the tree.
        #expect(try plan(["dir"], "/srv/copy", recursive: true).prefix(2) == ["mkdir /srv/copy", "link /srv/copy/ln -> x"])
    }

    @Test func aSymlinkNamedAsASourceIsFollowedAndSpecialFilesAreSkipped() throws {
        #expect(try plan(["alias"], "/srv") == ["copy /srv/alias"])
        #expect(try plan(["pipe", "sock", "a"], "/srv") == [
            "skip /srv/pipe: pipe is not a regular file (a FIFO): skipped.",
            "skip /srv/sock: sock is not a regular file (a socket): skipped.", "copy /srv/a",
        ])
        #expect(try plan(["missing", "dangling", "a"], "/srv") == [
            "fail /srv/missing: missing on this machine does not exist.",
            "fail /srv/dangling: dangling on this machine is a symbolic link to nothing.", "copy /srv/a",
        ])
    }

    @Test func totalsCountFilesOnly() throws {
        var o = TransferOptions()
        o.recursive = true
        let p = try TransferPlanner.plan(sources: [Array("dir".utf8), Array("a".utf8)], destination: Array("/srv".utf8),
                                         options: o, from: here, to: there)
        #expect(p.files == 3 && p.bytes == 13)
    }
}

@Suite struct PathBytesTests {
    @Test func joinBaseAndFolder() {
        #expect(PathBytes.join([], Array("a".utf8)) == Array("a".utf8))
        #expect(PathBytes.join(Array("/".utf8), Array("a".utf8)) == Array("/a".utf8))
        #expect(PathBytes.join(Array("/srv".utf8), Array("a".utf8)) == Array("/srv/a".utf8))
        #expect(PathBytes.baseName(Array("/srv/dir/".utf8)) == Array("dir".utf8))
        #expect(PathBytes.baseName(Array("name".utf8)) == Array("name".utf8))
        #expect(PathBytes.directoryName(Array("/srv/a".utf8)) == Array("/srv".utf8))
        #expect(PathBytes.directoryName(Array("/a".utf8)) == Array("/".utf8))
        #expect(PathBytes.directoryName(Array("a".utf8)) == [])
        #expect(PathBytes.shown([0x61, 0x0A, 0xFF]) == "a\\n\\xFF")
    }
}
