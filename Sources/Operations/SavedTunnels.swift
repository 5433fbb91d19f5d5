import Forwarding
import Inventory

/// A server's saved tunnels, read by the one rule `-L`/`-R`/`-D` follow (`ForwardSpecParser`): what
/// `essh servers add/edit --forward`, the JSON import and the interface's Tunnels screen check before saving, and
/// what `essh forward NAME` and the `TunnelSupervisor` start.
public enum SavedTunnels {
    /// `text` (`L:5432:localhost:5432`, `d:1080`) in the saved form, or the parser's sentence.
    public static func normalised(_ text: String) throws(ForwardError) -> String {
        try ForwardSpecParser.parseSaved(text).savedText
    }

    /// Each of `texts` in the saved form, in order and without repeats; the first bad one is thrown.
    public static func normalised(_ texts: [String]) throws(ForwardError) -> [String] {
        var list: [String] = []
        for text in texts {
            let saved = try normalised(text)
            if !list.contains(saved) { list.append(saved) }
        }
        return list
    }

    /// Whether `text` is the word that clears a server's tunnels (`--forward none`).
    public static func isNone(_ text: String) -> Bool {
        text.trimmingCharacters(in: .whitespaces).lowercased() == "none"
    }

    /// The tunnels `server` keeps, each read again (a row changed by hand may hold one the parser refuses).
    public static func tunnels(of server: Server) -> [(id: TunnelID, spec: Result<ForwardSpec, ForwardError>)] {
        server.forwards.map { text in
            let id = TunnelID(server: server.name, forward: text)
            do throws(ForwardError) {
                return (id, .success(try ForwardSpecParser.parseSaved(text)))
            } catch {
                return (id, .failure(error))
            }
        }
    }
}

/// One saved tunnel: the server it goes through and its forward in the saved form.
public struct TunnelID: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var server: String
    public var forward: String

    public init(server: String, forward: String) {
        self.server = server
        self.forward = forward
    }

    public var description: String { "\(server) \(forward)" }

    public static func < (a: TunnelID, b: TunnelID) -> Bool {
        (a.server, a.forward) < (b.server, b.forward)
    }
}
