/// One step of a planned transfer.
public struct TransferItem: Sendable, Equatable {
    public enum Action: Sendable, Equatable {
        /// A regular file: written under its partial name, renamed into place.
        case copyFile
        /// A folder of a -r tree (made before what is in it).
        case makeDirectory
        /// A symbolic link inside a -r tree, recreated pointing where the source points.
        case makeLink(target: [UInt8])
        /// Not copied, and why (a FIFO, a folder without -r); the transfer goes on.
        case skip(reason: String)
        /// Cannot be copied (missing source); the transfer goes on.
        case fail(reason: String)
    }
    public var source: [UInt8]
    public var destination: [UInt8]
    /// The source's attributes (nil when missing).
    public var info: FileInfo?
    public var action: Action

    public init(source: [UInt8], destination: [UInt8], info: FileInfo?, action: Action) {
        self.source = source
        self.destination = destination
        self.info = info
        self.action = action
    }
}

/// What a transfer will do, in order: folders before their contents.
public struct TransferPlan: Sendable, Equatable {
    public var items: [TransferItem]
    /// The folder every destination is inside: DEST when it is a folder, else the folder of the new name DEST gives.
    /// A download writes only below it (`LocalDestination`).
    public var root: [UInt8] = []
    public var files: Int { items.filter { $0.action == .copyFile }.count }
    public var bytes: Int64 { items.filter { $0.action == .copyFile }.reduce(0) { $0 + ($1.info?.size ?? 0) } }
}

/// scp's rules for sources and a destination, walked over two `FileTree`s (pure given the trees):
/// - an existing folder DEST means "into it"; several sources need DEST to be an existing folder;
/// - a missing DEST with one source is the new name; a trailing `/` on a missing DEST is an error;
/// - a folder source needs -r (else skipped, "is a folder: add -r");
/// - a symlink named as a source is followed; inside -r it is recreated as a link;
/// - a FIFO, socket or device is skipped: "not a regular file";
/// - a name a folder lists is data: one that is not one file name (`PathBytes.componentProblem`), or that the
///   listing gives twice, fails with a sentence naming it; folders deeper than `maxDepth` are not walked.
public enum TransferPlanner {
    /// Folders below a source walked at most (OpenSSH's sftp stops at 64 too): a server whose folder lists itself
    /// is stopped there, the rest copied.
    public static let maxDepth = 64

    public static func plan(sources: [[UInt8]], destination: [UInt8], options: TransferOptions,
                            from source: FileTree, to target: FileTree) throws(TransferError) -> TransferPlan {
        guard !sources.isEmpty else { throw TransferError(.usage, "Nothing to copy: give at least one source.") }
        let destInfo = try target.info(destination, followLinks: true)
        let destIsFolder = destInfo?.kind == .directory
        let trailingSlash = destination.count > 1 && destination.last == PathBytes.slash
        let shownDest = destination.isEmpty ? "the login folder" : PathBytes.shown(destination)
        if !destIsFolder {
            if trailingSlash || sources.count > 1 {
                if destInfo == nil {
                    throw TransferError(.usage, "There is no folder \(shownDest) on \(target.placeName)"
                                        + (sources.count > 1 ? " to copy \(sources.count) sources into" : "")
                                        + ": make it first" + (trailingSlash && sources.count == 1
                                                               ? ", or leave out the trailing /." : "."))
                }
                throw TransferError(.usage, "\(shownDest) on \(target.placeName) is \(destInfo!.kindWords), not a "
                                    + "folder: copying \(sources.count == 1 ? "into it" : "several sources") needs "
                                    + "a folder.")
            }
        }
        var items: [TransferItem] = []
        for s in sources {
            let into = destIsFolder ? PathBytes.join(destination, PathBytes.baseName(s)) : destination
            let found: FileInfo?
            do throws(TransferError) {
                found = try source.info(s, followLinks: true)
            } catch where error.concernsOneFile {
                // Refused (permission denied on a parent, …): that source fails, the others go on, as with scp.
                items.append(TransferItem(source: s, destination: into, info: nil, action: .fail(reason: error.message)))
                continue
            }
            guard let info = found else {
                let dangling = (try? source.info(s, followLinks: false)) != nil
                items.append(TransferItem(source: s, destination: into, info: nil, action: .fail(
                    reason: "\(PathBytes.shown(s)) on \(source.placeName) "
                    + (dangling ? "is a symbolic link to nothing" : "does not exist") + ".")))
                continue
            }
            switch info.kind {
            case .regular:
                items.append(TransferItem(source: s, destination: into, info: info, action: .copyFile))
            case .directory:
                guard options.recursive else {
                    items.append(TransferItem(source: s, destination: into, info: info, action: .skip(
                        reason: "\(PathBytes.shown(s)) is a folder: add -r to copy it and what it holds.")))
                    continue
                }
                if let destInfo, !destIsFolder {
                    throw TransferError(.usage, "\(shownDest) on \(target.placeName) is \(destInfo.kindWords): a "
                                        + "folder cannot be copied onto it.")
                }
                var seen = Set<String>()
                try walk(s, into: into, info: info, source: source, depth: 0, seen: &seen, items: &items)
            default:
                items.append(TransferItem(source: s, destination: into, info: info,
                                          action: .skip(reason: notRegular(s, info))))
            }
        }
        return TransferPlan(items: items, root: destIsFolder ? destination : PathBytes.directoryName(destination))
    }

    static func notRegular(_ path: [UInt8], _ info: FileInfo) -> String {
        "\(PathBytes.shown(path)) is not a regular file (\(info.kindWords))."
    }

    private static func walk(_ folder: [UInt8], into: [UInt8], info: FileInfo, source: FileTree, depth: Int,
                             seen: inout Set<String>, items: inout [TransferItem]) throws(TransferError) {
        if depth > maxDepth {
            items.append(TransferItem(source: folder, destination: into, info: info, action: .fail(
                reason: "\(PathBytes.shown(folder)) on \(source.placeName) is more than \(maxDepth) folders deep "
                + "(a folder that holds itself?): it was not copied.")))
            return
        }
        if let identity = source.folderIdentity(folder) {
            guard seen.insert(identity).inserted else {
                items.append(TransferItem(source: folder, destination: into, info: info, action: .fail(
                    reason: "\(PathBytes.shown(folder)) on \(source.placeName) is a folder already copied above it "
                    + "(a loop): it was not copied again.")))
                return
            }
        }
        items.append(TransferItem(source: folder, destination: into, info: info, action: .makeDirectory))
        let listed: [FileEntry]
        do throws(TransferError) {
            listed = try source.list(folder)
        } catch where error.concernsOneFile {
            // An unreadable folder inside the tree: it is made, what it holds fails with the reason, the rest goes on.
            items.append(TransferItem(source: folder, destination: into, info: info, action: .fail(reason: error.message)))
            return
        }
        var names = Set<[UInt8]>(), repeated = Set<[UInt8]>()
        for entry in listed {
            if let problem = PathBytes.componentProblem(entry.name) {
                items.append(TransferItem(source: folder, destination: into, info: nil, action: .fail(
                    reason: "\(source.placeName) listed \(problem) in \(PathBytes.shown(folder)): a name from a "
                    + "listing must be one file name, so it was not copied.")))
            } else if !names.insert(entry.name).inserted, repeated.insert(entry.name).inserted {
                let s = PathBytes.join(folder, entry.name)
                items.append(TransferItem(source: s, destination: PathBytes.join(into, entry.name), info: nil,
                                          action: .fail(reason: "\(source.placeName) listed \(PathBytes.shown(s)) "
                                                        + "more than once: it was not copied.")))
            }
        }
        let entries = listed.filter { PathBytes.componentProblem($0.name) == nil && !repeated.contains($0.name) }
            .sorted { $0.name.lexicographicallyPrecedes($1.name) }
        for entry in entries {
            let s = PathBytes.join(folder, entry.name), d = PathBytes.join(into, entry.name)
            switch entry.info.kind {
            case .regular:
                items.append(TransferItem(source: s, destination: d, info: entry.info, action: .copyFile))
            case .directory:
                try walk(s, into: d, info: entry.info, source: source, depth: depth + 1, seen: &seen, items: &items)
            case .symlink:
                var target: [UInt8]
                if let known = entry.linkTarget {
                    target = known
                } else {
                    do throws(TransferError) {
                        target = try source.readLink(s)
                    } catch where error.concernsOneFile {
                        items.append(TransferItem(source: s, destination: d, info: entry.info,
                                                  action: .fail(reason: error.message)))
                        continue
                    }
                }
                items.append(TransferItem(source: s, destination: d, info: entry.info, action: .makeLink(target: target)))
            default:
                items.append(TransferItem(source: s, destination: d, info: entry.info,
                                          action: .skip(reason: notRegular(s, entry.info))))
            }
        }
    }
}
