/// F5's question when names being copied are in the destination folder already (issue 27): one name at a time on
/// the overlay stack, as termscp and mc ask — overwrite, skip, copy under a free name, or the same for every name
/// left. What was decided waits here until the last answer queues the copy; Esc copies nothing.
///
/// Only files and links copied are asked about, and only over a regular file: a folder onto a folder of its name
/// merges, and an entry whose name is taken by anything else (a folder, a link, a device) is never overwritten — the
/// copy engine would refuse it too — so it is left out and said.
struct FilesConflictQuestion: Sendable, Equatable {
    /// An entry copied and the one of its name in the destination.
    struct Conflict: Sendable, Equatable {
        var source: FileRow
        var existing: FileRow
    }

    /// A name copied as `newName`.
    struct Rename: Sendable, Equatable {
        var name: [UInt8]
        var newName: [UInt8]
    }

    /// The Files screen's opening this copy belongs to.
    var session: Int
    /// The side the entries come from.
    var from: FilesSide
    var sourceFolder: [UInt8]
    /// The folder they go into, on the other side.
    var destination: [UInt8]
    /// The names copied under their own names (no conflict, or overwrite chosen), in the order chosen.
    private(set) var copied: [[UInt8]] = []
    /// The names copied under a free name instead.
    private(set) var renamed: [Rename] = []
    /// The names an answer skipped.
    private(set) var skipped: [[UInt8]] = []
    /// The names left out because what has that name in the destination is no regular file.
    private(set) var refused: [FileRow] = []
    /// The conflicts still to answer; the first is asked now.
    private(set) var pending: [Conflict] = []
    /// How many conflicts there were (the title's "2 of 5").
    private(set) var total = 0
    /// Every name the destination has, or will have once this copy is done: a rename picks one not among them.
    private(set) var taken: Set<[UInt8]>
    /// The highlighted button: Skip, so Enter on the default loses nothing.
    var selected = 1

    static let buttons = ["Overwrite", "Skip", "Rename", "Overwrite all", "Skip all"]

    /// `chosen` (from `sourceFolder` on `from`) going into `destination`, whose listing is `existing`.
    init(session: Int, from: FilesSide, sourceFolder: [UInt8], chosen: [FileRow], destination: [UInt8],
         existing: [FileRow]) {
        self.session = session
        self.from = from
        self.sourceFolder = sourceFolder
        self.destination = destination
        let there = Dictionary(existing.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        taken = Set(existing.map(\.name)).union(chosen.map(\.name))
        for row in chosen {
            guard let other = there[row.name], Self.isFileLike(row) else {
                // No name taken, or a folder merging into its namesake (or refused by the copy itself).
                copied.append(row.name)
                continue
            }
            if other.kind == .file {
                pending.append(Conflict(source: row, existing: other))
            } else {
                refused.append(other)
            }
        }
        total = pending.count
    }

    /// A file, or a link that does not lead to a folder: what is copied as one file.
    static func isFileLike(_ row: FileRow) -> Bool {
        row.kind == .file || (row.kind == .symlink && !row.linksToDirectory)
    }

    /// The conflict asked about now (nil: all answered).
    var asked: Conflict? { pending.first }

    /// Which of `total` is asked now, from 1.
    var number: Int { total - pending.count + 1 }

    /// The name a rename of the one asked would copy it under.
    var renameTarget: [UInt8]? { asked.map { Self.freeName($0.source.name, taken: taken) } }

    enum Answer: Sendable, Equatable { case overwrite, skip, rename, overwriteAll, skipAll }

    /// Answers the conflict asked now (the "all" answers every one left).
    mutating func answer(_ answer: Answer) {
        guard let conflict = pending.first else { return }
        let name = conflict.source.name
        switch answer {
        case .overwrite: copied.append(name)
        case .skip: skipped.append(name)
        case .rename:
            let free = Self.freeName(name, taken: taken)
            taken.insert(free)
            renamed.append(Rename(name: name, newName: free))
        case .overwriteAll:
            copied += pending.map(\.source.name)
            pending = []
            return
        case .skipAll:
            skipped += pending.map(\.source.name)
            pending = []
            return
        }
        pending.removeFirst()
        selected = 1
    }

    /// `NAME.1`, `NAME.2`, … : the first not in `taken`.
    static func freeName(_ name: [UInt8], taken: Set<[UInt8]>) -> [UInt8] {
        var n = 1
        while taken.contains(name + Array(".\(n)".utf8)) { n += 1 }
        return name + Array(".\(n)".utf8)
    }

    /// The copies to queue once every conflict is answered: the names copied as they are in one request, then each
    /// renamed one in a request of its own (a single source whose destination does not exist takes that name).
    var requests: [FilesTransferRequest] {
        var requests: [FilesTransferRequest] = []
        if !copied.isEmpty {
            requests.append(FilesTransferRequest(from: from, sources: copied.map { FilePath.join(sourceFolder, $0) },
                                                 destination: destination, resume: false))
        }
        for rename in renamed {
            requests.append(FilesTransferRequest(from: from, sources: [FilePath.join(sourceFolder, rename.name)],
                                                 destination: destination, resume: false, newName: rename.newName))
        }
        return requests
    }
}
