import Foundation
import Operations

/// ~/.ssh/config on the Servers screen: the first start's offer to import it, and quick connect's names.
extension Update {
    /// The stored setting that says the import was declined (not one of `Settings`' table: nothing to set by hand).
    package static let sshConfigOfferSetting = "sshconfig.import_offer"

    /// ~/.ssh/config names `hosts` and nothing is saved yet: ask once whether to import them, over the empty list.
    static func offerSSHConfigImport(_ state: inout AppState, hosts: [String]) -> [Effect] {
        guard !hosts.isEmpty, state.servers.isEmpty, state.screen.kind == .servers, state.overlays.isEmpty else {
            return []
        }
        let shown = hosts.prefix(5).joined(separator: ", ")
            + (hosts.count > 5 ? " and \(hosts.count - 5) more" : "")
        state.dialog = DialogState(
            purpose: .importSSHConfig, title: "Import ~/.ssh/config?",
            message: """
                Your ~/.ssh/config names \(hosts.count) host\(hosts.count == 1 ? "" : "s"): \(shown).
                Save \(hosts.count == 1 ? "it" : "them") here as servers? eSSH only reads the file.
                No is remembered: import later with essh servers import-ssh-config, or connect to a Host by its \
                name with n.
                """,
            buttons: ["Import", "No"])
        return []
    }

    /// Quick connect's text was resolved: connect, saying where the name came from (unless the form was left).
    static func destinationResolved(_ state: inout AppState, _ resolution: ConnectionProfile.Resolution) -> [Effect] {
        guard state.form?.purpose == .quickConnect else { return [] }
        let name = state.form?.text("dest").trimmingCharacters(in: .whitespaces) ?? ""
        return connect(&state, resolution.profile, origin: name.isEmpty ? resolution.origin
                       : "\(name): \(resolution.origin)")
    }
}
