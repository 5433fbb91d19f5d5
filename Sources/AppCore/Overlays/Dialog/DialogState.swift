/// A modal question or message over the current screen.
struct DialogState: Sendable, Equatable {
    enum Purpose: Sendable, Equatable {
        /// Delete the saved server with this name?
        case confirmDelete(String)
        /// A message to acknowledge.
        case notice
        /// Save the hosts of ~/.ssh/config as servers? (No is remembered.)
        case importSSHConfig
        /// Store the password just typed for this saved server in the vault? (No is the default.)
        case rememberPassword(server: String)
        /// The vault's password for this server was refused and a typed one worked: store that instead? (No default.)
        case updateVaultPassword(server: String)
        /// The key was installed on this saved password server: switch it to `to`? (No is the default.)
        case switchToKey(server: String, to: KeySwitch)
    }

    var purpose: Purpose
    var title: String
    var message: String
    var buttons: [String]
    var selected = 0
    /// The first line of the message shown, when it is taller than the screen allows (↑ ↓ scroll it).
    var top = 0
}
