import TUIKit

/// Which side of the Files screen: this machine on the left, the server on the right.
package enum FilesSide: Sendable, Equatable, CaseIterable {
    case local, remote

    var other: FilesSide { self == .local ? .remote : .local }
}

/// How a pane orders its entries (`s` takes the next): folders always first.
enum FilesSort: Sendable, Equatable {
    case name, size, time

    var next: FilesSort {
        switch self {
        case .name: return .size
        case .size: return .time
        case .time: return .name
        }
    }

    var words: String {
        switch self {
        case .name: return "name"
        case .size: return "size (largest first)"
        case .time: return "time (newest first)"
        }
    }
}

/// One pane: the folder shown, its entries as listed, the rows shown (filtered and sorted, derived once when any of
/// those change, never per frame), the selection, the marks (by name, so a new sort keeps them) and the filter.
struct FilesPane: Sendable, Equatable {
    var side: FilesSide
    /// The folder shown (empty until the first listing says where it is).
    private(set) var path: [UInt8] = []
    private(set) var entries: [FileRow] = []
    /// The entries the filter lets through, in the pane's order: what the selection moves over.
    private(set) var rows: [FileRow] = []
    var list = ListState()
    private(set) var marks: Set<[UInt8]> = []
    var filter = TextField() {
        didSet { if filter.text != oldValue.text { arrange(keeping: selected?.name) } }
    }
    /// Whether the filter bar (`/`) takes the keys.
    var filtering = false
    var sort = FilesSort.name {
        didSet { if sort != oldValue { arrange(keeping: selected?.name) } }
    }
    /// A listing was asked for and has not come back.
    var loading = true
    /// Why the last listing failed (shown in the pane; the old entries stay).
    var problem: String?

    init(side: FilesSide) {
        self.side = side
    }

    var selected: FileRow? { list.selected.flatMap { rows.indices.contains($0) ? rows[$0] : nil } }

    /// The marked entries still listed, else the selected one: what F5, F8 and chmod act on.
    var chosen: [FileRow] {
        let marked = rows.filter { marks.contains($0.name) }
        if !marked.isEmpty { return marked }
        return selected.map { [$0] } ?? []
    }

    /// A new listing of `path`: the filter is cleared when the folder changed, marks of names no longer there go,
    /// and `select` (the folder just left, a new name) is selected when listed, else the same name as before.
    mutating func listed(_ path: [UInt8], _ entries: [FileRow], select: [UInt8]?) {
        let sameFolder = path == self.path
        let keep = select ?? (sameFolder ? selected?.name : nil)
        self.path = path
        self.entries = entries
        loading = false
        problem = nil
        if sameFolder {
            let names = Set(entries.map(\.name))
            marks = marks.filter { names.contains($0) }
        } else {
            marks = []
            filter = TextField()
            filtering = false
            list = ListState()
        }
        arrange(keeping: keep)
    }

    mutating func toggleMark() {
        guard let row = selected else { return }
        if marks.remove(row.name) == nil { marks.insert(row.name) }
    }

    /// `*`: every row shown changes its mark.
    mutating func invertMarks() {
        for row in rows where marks.remove(row.name) == nil { marks.insert(row.name) }
    }

    mutating func clearMarks() { marks = [] }

    func isMarked(_ row: FileRow) -> Bool { marks.contains(row.name) }

    /// Filters and sorts `entries` into `rows`, selecting `name` when it is among them.
    private mutating func arrange(keeping name: [UInt8]?) {
        let needle = filter.text.lowercased()
        let shown = needle.isEmpty ? entries : entries.filter { $0.displayName.lowercased().contains(needle) }
        rows = shown.sorted(by: Self.order(sort))
        if let name, let index = rows.firstIndex(where: { $0.name == name }) {
            list.selected = index
        } else {
            list.clamp(count: rows.count)
            if list.selected == nil { list.selectFirst(count: rows.count) }
        }
    }

    /// Folders first; then by the sort's key; names break ties (case-insensitive, then as bytes).
    static func order(_ sort: FilesSort) -> (FileRow, FileRow) -> Bool {
        { a, b in
            if a.opens != b.opens { return a.opens }
            switch sort {
            case .size where a.size != b.size: return a.size > b.size
            case .time where a.modified != b.modified: return a.modified > b.modified
            default: break
            }
            let x = a.displayName.lowercased(), y = b.displayName.lowercased()
            if x != y { return x < y }
            return a.name.lexicographicallyPrecedes(b.name)
        }
    }
}
