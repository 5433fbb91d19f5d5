import Forwarding
import Inventory

/// ssh_config's `LocalForward`, `RemoteForward` and `DynamicForward` lines read by the one rule `-L`/`-R`/`-D` and
/// saved tunnels follow (`SavedTunnels`): `LocalForward [bind:]port host:hostport` is `-L [bind:]port:host:hostport`,
/// `RemoteForward [bind:]port host:hostport` is `-R …`, `DynamicForward [bind:]port` is `-D …`. For
/// `essh servers import-ssh-config` (the server's saved tunnels) and `essh forward HOST` alone (what `ssh -N HOST`
/// sets up). What eSSH cannot do is said per line, never dropped unsaid: Unix-domain socket paths, and
/// `RemoteForward` without a target (a SOCKS proxy on the server's side).
public enum SSHConfigForwards {
    /// A line eSSH does not set up, and why.
    public struct Refused: Error, Sendable, Equatable {
        /// The line.
        public var line: SSHConfigForward
        /// Why, a phrase: "Unix-domain socket forwarding is not supported by eSSH".
        public var reason: String

        /// "LocalForward /tmp/a.sock db:5432 (~/.ssh/config:4): Unix-domain socket forwarding …": for the note and
        /// the import's lines.
        public var text: String { "\(line.text) (\(line.location.file):\(line.location.line)): \(reason)" }
    }

    /// What a host's forward lines come to.
    public struct Reading: Sendable, Equatable {
        /// The forwards in the saved form (`L:8080:db:5432`), in order, each once (two spellings of one forward
        /// are one, as ssh adds a forward once).
        public var saved: [String] = []
        /// The lines left out, in order.
        public var refused: [Refused] = []
    }

    /// `lines` read in order.
    public static func read(_ lines: [SSHConfigForward]) -> Reading {
        var reading = Reading()
        for line in lines {
            switch savedText(line) {
            case .success(let text):
                if !reading.saved.contains(text) { reading.saved.append(text) }
            case .failure(let refused):
                reading.refused.append(refused)
            }
        }
        return reading
    }

    /// One line as a saved forward, or why not.
    static func savedText(_ line: SSHConfigForward) -> Result<String, Refused> {
        func refuse(_ reason: String) -> Result<String, Refused> { .failure(Refused(line: line, reason: reason)) }
        let words = line.arguments
        // OpenSSH's parse_forward takes a field with a slash for a socket path.
        if words.contains(where: { $0.contains("/") }) {
            return refuse("Unix-domain socket forwarding is not supported by eSSH (TCP ports only)")
        }
        let letter: String
        switch (line.kind, words.count) {
        case (.local, 2): letter = "L"
        case (.remote, 2): letter = "R"
        case (.dynamic, 1): letter = "D"
        case (.remote, 1):
            return refuse("a RemoteForward without a target is a SOCKS proxy on the server's side, which eSSH does not "
                          + "support (DynamicForward is one here)")
        case (.local, 1): return refuse("the target is missing (LocalForward [bind:]port host:hostport)")
        case (.local, _): return refuse("give LocalForward [bind:]port host:hostport")
        case (.remote, _): return refuse("give RemoteForward [bind:]port host:hostport")
        case (.dynamic, _): return refuse("give DynamicForward [bind:]port")
        }
        do throws(ForwardError) {
            return .success(try SavedTunnels.normalised(letter + ":" + words.joined(separator: ":")))
        } catch {
            return refuse(error.message)
        }
    }
}
