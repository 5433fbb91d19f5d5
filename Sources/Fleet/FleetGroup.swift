/// Servers whose results read the same — same status, exit status, stdout, stderr and error — shown once with the
/// list of servers (what `dshbak -c` does for pdsh).
public struct FleetGroup: Sendable, Equatable {
    /// Indexes into the results, in result order.
    public var members: [Int]
    /// The names of the members, in result order.
    public var names: [String]
    /// One member's result (all members read the same).
    public var sample: FleetResult

    /// Groups finished results; a group's place is that of its first member, members keep result order.
    /// Unfinished results (waiting, running) are left out.
    public static func group(_ results: [FleetResult]) -> [FleetGroup] {
        var groups: [FleetGroup] = []
        var byKey: [Key: Int] = [:]
        for (i, result) in results.enumerated() where result.status.isFinal {
            let key = Key(result)
            if let g = byKey[key] {
                groups[g].members.append(i)
                groups[g].names.append(result.name)
            } else {
                byKey[key] = groups.count
                groups.append(FleetGroup(members: [i], names: [result.name], sample: result))
            }
        }
        return groups
    }

    /// What makes two results the same; the name and the duration do not count.
    struct Key: Hashable {
        var status: FleetStatus
        var exitStatus: Int32?
        var stdout: [UInt8]
        var stderr: [UInt8]
        var error: String?
        var truncated: Bool

        init(_ r: FleetResult) {
            status = r.status
            exitStatus = r.exitStatus
            stdout = r.stdout
            stderr = r.stderr
            error = r.error
            truncated = r.truncated
        }
    }
}
