import Basics
import Foundation
import Inventory
import SSH

/// The one rule for what a typed name means, for `essh NAME`, `exec`, `shell`, `net` and the interface's quick
/// connect alike.
extension ConnectionProfile {
    /// A typed name resolved: the profile, where it came from, and the details `-v` shows.
    public struct Resolution: Sendable, Equatable {
        /// What to connect to.
        public var profile: ConnectionProfile
        /// The destination as typed, parsed; nil when the text named a saved server.
        public var destination: Destination?
        /// Where the name came from, as a phrase after the name: "saved server", "from ~/.ssh/config line 12",
        /// "not a saved server or a Host in ~/.ssh/config".
        public var origin: String
        /// More, one sentence each: the values ssh_config gave and their lines, what was skipped there (IdentityFiles
        /// that do not exist, algorithm lists, Match blocks eSSH does not evaluate), a Host the saved server hides.
        public var notes: [String]
        /// What ssh_config said about the typed host, when it was read for it (not for a saved server): its forward
        /// lines are what `essh forward HOST` alone sets up, as `ssh -N HOST` does.
        public var sshConfig: SSHConfigLookup?

        /// A resolution.
        public init(profile: ConnectionProfile, destination: Destination?, origin: String, notes: [String],
                    sshConfig: SSHConfigLookup? = nil) {
            self.profile = profile
            self.destination = destination
            self.origin = origin
            self.notes = notes
            self.sshConfig = sshConfig
        }
    }

    /// What `text` names, in this order: a saved server (a word without `@` or `:`, looked up by `saved`), else
    /// `[user@]host[:port]` with the host looked up in ssh_config (`~/.ssh/config` and what it includes, read now,
    /// never written) as OpenSSH would, else the typed host. ssh_config gives HostName, User, Port and the first
    /// IdentityFile that exists (as ssh skips missing ones), where the text gives none: a typed user or port wins,
    /// as with ssh. ssh_config's ProxyJump (or `ProxyCommand ssh -W %h:%p HOST`) becomes the
    /// profile's `jump`; another ProxyCommand is kept (`unsupportedProxy`) and `options` refuses it, so such a host is
    /// never connected to directly. Throws the destination's `SSHError` when `text` is no
    /// destination, an `InventoryError` when the database or the ssh_config cannot be read (or gives a bad Port).
    public static func resolve(_ text: String, saved: (String) throws -> Server?, context: Context,
                               sshConfig: SSHConfigReader? = nil,
                               fileExists: (String) -> Bool = { FileManager.default.fileExists(atPath: $0) }) throws
        -> Resolution
    {
        let home = context.home
        let reader = sshConfig ?? SSHConfigReader(home: home, localUser: context.localUser)
        let path = home + "/.ssh/config"
        let shownPath = "~/.ssh/config"
        if !text.contains("@"), !text.contains(":"), let server = try saved(text) {
            var notes: [String] = []
            // Said, not acted on: the saved server wins a name clash, and a broken ssh_config does not stop it.
            do {
                if let shadowed = try reader.lookup(text, path: path), shadowed.namedLiterally,
                   let line = shadowed.blocks.first {
                    notes.append("\(line.text(home: home)) names \(text) too; the saved server comes first.")
                }
            } catch {
                notes.append("\(shownPath) was not read: \(UserFacing.sentence(error))")
            }
            return Resolution(profile: ConnectionProfile(server: server), destination: nil, origin: "saved server",
                              notes: notes)
        }
        let destination = try Destination(parsing: text)
        var profile = ConnectionProfile(destination: destination)
        let lookup = try reader.lookup(destination.host, path: path)
        guard let found = lookup, !found.isEmpty else {
            return Resolution(profile: profile, destination: destination,
                              origin: "not a saved server or a Host in \(shownPath)", notes: lookup?.notes ?? [],
                              sshConfig: lookup)
        }
        var notes = found.valueLines(home: home).map { "\(shownPath) gives " + $0 + "." }
        if let hostName = found.hostName { profile.host = hostName.text }
        if let port = found.port, found.portNumber == nil {
            // OpenSSH stops at such a line too ("Bad number").
            throw InventoryError(.sshConfig, "\(port.location): Port \(port.text)", """
                \(port.location.text(home: home)): Port '\(port.text)' (for \(destination.host)) is not a port number \
                from 1 to 65535. Fix that line of the ssh config.
                """)
        }
        if destination.port == nil, let port = found.portNumber { profile.port = port }
        if destination.user == nil, let user = found.user { profile.user = user.text }
        for file in found.identityFiles {
            if profile.keyPath == nil, fileExists(file.text) {
                profile.auth = .key
                profile.keyPath = file.text
            } else if profile.keyPath == nil {
                notes.append("IdentityFile \(file.text) (\(file.location.text(home: home))) does not exist; skipped, "
                             + "as ssh skips it.")
            }
        }
        if !found.algorithms.isEmpty {
            notes.append("The algorithm lists \(shownPath) gives \(destination.host) are not used when connecting "
                         + "by name (servers import-ssh-config saves them; --ciphers, --kex, --macs give them now).")
        }
        profile.jump = found.jump ?? ""
        profile.unsupportedProxy = found.unsupportedProxy
        let origin = found.blocks.first ?? SSHConfigLocation(file: path, line: 0)
        profile.origin = .sshConfig(alias: destination.host, origin)
        return Resolution(profile: profile, destination: destination, origin: "from \(origin.text(home: home))",
                          notes: notes + found.notes, sshConfig: found)
    }
}
