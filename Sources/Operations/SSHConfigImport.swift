import Basics
import Inventory

/// The hosts of an ssh_config file as servers to save, for the interface's first-start offer: each concrete Host
/// as `SSHConfigHost.draft`, except the hosts reached through a jump host (ProxyJump, ProxyCommand), which eSSH
/// cannot connect to yet and must not save as direct hosts.
public enum SSHConfigImport {
    /// What an import would save, and what it leaves out.
    public struct Plan: Sendable, Equatable {
        /// The servers to save.
        public var drafts: [ServerDraft]
        /// Hosts left out, as "alias: why".
        public var skipped: [String]
        /// Lines the reader skipped, as "file:line: why".
        public var warnings: [String]
    }

    /// Reads the file at `path` (and what it includes); throws as `SSHConfigReader.read` does.
    public static func plan(path: String, reader: SSHConfigReader) throws(InventoryError) -> Plan {
        let result = try reader.read(path: path)
        let lookups = try reader.lookup(result.hosts.map(\.alias), path: path) ?? []
        var plan = Plan(drafts: [], skipped: [], warnings: result.warnings)
        for (i, host) in result.hosts.enumerated() {
            if i < lookups.count, let proxy = lookups[i].proxy {
                plan.skipped.append("\(host.alias): reached through a jump host (\(proxy.keyword) \(proxy.text)), "
                                    + "which eSSH does not support yet")
            } else {
                plan.drafts.append(host.draft)
            }
        }
        return plan
    }
}
