import Foundation
import Inventory
import SSH

/// The team's pinned host keys (issue 18) as connecting uses them: the local cache's pins of a host and port, for
/// `ConnectionProfile.Context.hostKeyPins`. A key that differs from the team's pin is refused by the SSH module,
/// naming the pin and who set it; a pinned key is trusted without a question.
public enum TeamPins {
    /// The pins of a host and port.
    public typealias Lookup = @Sendable (_ host: String, _ port: Int) -> [PinnedHostKey]

    /// Pins read from `inventory`'s team cache; none when it is not linked to a team (or cannot be read: the
    /// known_hosts rules then apply as for any server).
    public static func lookup(_ inventory: Inventory) -> Lookup {
        { host, port in
            ((try? inventory.teamPins(host: host, port: port)) ?? []).map(pinned)
        }
    }

    /// A cache pin as the SSH module takes it.
    public static func pinned(_ pin: TeamPin) -> PinnedHostKey {
        PinnedHostKey(type: pin.keyType, key: pin.key, fingerprint: pin.fingerprint, pinnedBy: pin.pinnedBy,
                      pinnedAt: pin.pinnedAt)
    }
}
