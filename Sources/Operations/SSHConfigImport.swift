import Basics
import Inventory

/// The one import of an ssh_config file, for `essh servers import-ssh-config` and the interface's first-start
/// offer alike: each concrete Host as `SSHConfigHost.draft` (with its jump chain from `ProxyJump` or
/// `ProxyCommand ssh -W %h:%p HOST`), except the hosts the reader skips (a bad Port), each with the reason; and what
/// the saving did, counted the same way for both — hosts whose other ProxyCommand was kept in the note among them.
/// `LocalForward`, `RemoteForward` and `DynamicForward` become the server's saved tunnels (`SSHConfigForwards`, the
/// rule `--forward` follows); a forward line eSSH cannot set up is said and kept in the note.
public enum SSHConfigImport {
    /// What an import would save, and what it leaves out.
    public struct Plan: Sendable, Equatable {
        /// The hosts to save, each with the options eSSH does not use.
        public var hosts: [SSHConfigHost]
        /// Hosts left out, as "alias: why".
        public var skipped: [String]
        /// Lines the reader skipped, as "file:line: why".
        public var warnings: [String]

        /// The servers to save.
        public var drafts: [ServerDraft] { hosts.map(SSHConfigImport.draft) }
    }

    /// What saving a plan did.
    public struct Outcome: Sendable, Equatable {
        /// The store's account: added, updated, unchanged, refused.
        public var summary: ImportSummary
        /// Every host not saved, as "alias: why": the plan's, then those the store refused.
        public var skipped: [String]
        /// The saved hosts that have options eSSH does not use.
        public var partly: [SSHConfigHost]
        /// The saved hosts with a ProxyCommand eSSH does not run (kept in their note; saved without it).
        public var unsupportedProxies: [SSHConfigHost] = []
        /// The forward lines of saved hosts that eSSH does not set up (a server added keeps them in its note), as
        /// "alias: line (file:line): why".
        public var refusedForwards: [String] = []

        /// "3 added, 0 updated, 0 unchanged, 2 skipped, 2 with options eSSH does not use": the counts both front
        /// ends print.
        public var counts: String {
            "\(summary.added.count) added, \(summary.updated.count) updated, \(summary.unchanged.count) unchanged, "
                + "\(skipped.count) skipped"
                + (partly.isEmpty ? "" : ", \(partly.count) with options eSSH does not use")
                + (unsupportedProxies.isEmpty ? ""
                    : ", \(unsupportedProxies.count) with a ProxyCommand eSSH does not support (kept in the note)")
                + (summary.tunnels == 0 ? "" : ", \(CountText.text(summary.tunnels, "tunnel")) added")
                + (refusedForwards.isEmpty ? ""
                    : ", \(CountText.text(refusedForwards.count, "forward")) eSSH does not support (left out)")
        }
    }

    /// Reads the file at `path` (and what it includes); throws as `SSHConfigReader.read` does.
    public static func plan(path: String, reader: SSHConfigReader) throws(InventoryError) -> Plan {
        let result = try reader.read(path: path)
        return Plan(hosts: result.hosts, skipped: result.skipped.map { "\($0.alias): \($0.reason)" },
                    warnings: result.warnings)
    }

    /// The server to save for `host`: `SSHConfigHost.draft`, with its forward lines as saved tunnels and the lines
    /// eSSH cannot set up kept in its note (after an unsupported ProxyCommand's).
    public static func draft(_ host: SSHConfigHost) -> ServerDraft {
        var draft = host.draft
        let reading = SSHConfigForwards.read(host.forwards)
        draft.forwards = reading.saved
        let kept = reading.refused.map { $0.text + " (not imported)" }
        draft.note = ([draft.note].filter { !$0.isEmpty } + kept).joined(separator: "; ")
        return draft
    }

    /// Saves `plan`'s hosts (`Inventory.importServers`: new names added, saved ones updated, in one transaction).
    public static func save(_ plan: Plan, into inventory: Inventory) throws(InventoryError) -> Outcome {
        let summary = try inventory.importServers(plan.drafts)
        let saved = Set(summary.added + summary.updated + summary.unchanged)
        return Outcome(summary: summary, skipped: plan.skipped + summary.skipped,
                       partly: plan.hosts.filter { saved.contains($0.alias) && !$0.unusedOptions.isEmpty },
                       unsupportedProxies: plan.hosts.filter { saved.contains($0.alias) && $0.unsupportedProxy != nil },
                       refusedForwards: plan.hosts.filter { saved.contains($0.alias) }.flatMap { host in
                           SSHConfigForwards.read(host.forwards).refused.map { "\(host.alias): \($0.text)" }
                       })
    }
}
