/// Groups results as they arrive, one at a time: each new result is hashed once and joins its group (or starts
/// one), so a run of many servers does not regroup (and rehash) every result for every arrival. The groups are the
/// same as `FleetGroup.group` gives for the results added so far.
public struct FleetGrouper: Sendable {
    /// Groups by id (ids never change), and the id of each result's key.
    private var byID: [FleetGroup] = []
    private var idByKey: [FleetGroup.Key: Int] = [:]
    private var idByIndex: [Int: Int] = [:]

    public init() {}

    /// Adds the finished result at `index` (an unfinished one is left out, as `FleetGroup.group` does). Returns the
    /// id of its group and whether the group is new (its body is then this result's); nil when left out.
    @discardableResult
    public mutating func add(_ result: FleetResult, at index: Int) -> (id: Int, isNew: Bool)? {
        // A result replacing an earlier one at the same index is rare (the runner reports each once): start over.
        if idByIndex[index] != nil { return nil }
        guard result.status.isFinal else { return nil }
        let key = FleetGroup.Key(result)
        if let id = idByKey[key] {
            var group = byID[id]
            let at = group.members.firstIndex { $0 > index } ?? group.members.count
            group.members.insert(index, at: at)
            group.names.insert(result.name, at: at)
            if at == 0 { group.sample = result }
            byID[id] = group
            idByIndex[index] = id
            return (id, false)
        }
        let id = byID.count
        byID.append(FleetGroup(members: [index], names: [result.name], sample: result))
        idByKey[key] = id
        idByIndex[index] = id
        return (id, true)
    }

    /// Whether a result was already added at `index`.
    public func contains(index: Int) -> Bool { idByIndex[index] != nil }

    /// The groups with their ids, in the order of their first member (as `FleetGroup.group` orders them).
    public var groups: [(id: Int, group: FleetGroup)] {
        byID.enumerated().map { ($0.offset, $0.element) }.sorted { $0.1.members[0] < $1.1.members[0] }
    }
}
