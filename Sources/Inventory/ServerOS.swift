/// The operating system of a server: `auto` until the first connection detects it.
public enum ServerOS: String, Codable, Sendable, CaseIterable {
    case auto, linux, macos, bsd, windows
}
