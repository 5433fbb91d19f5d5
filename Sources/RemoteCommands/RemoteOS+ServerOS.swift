import Inventory
import NetParsers

extension RemoteOS {
    /// The system a saved server's stored OS names; nil for `auto` (not detected yet).
    public init?(_ stored: ServerOS) {
        switch stored {
        case .auto: return nil
        case .linux: self = .linux
        case .bsd: self = .freebsd
        case .macos: self = .macos
        case .windows: self = .windows
        }
    }

    /// The value to store in the inventory for this system.
    public var serverOS: ServerOS {
        switch self {
        case .linux: return .linux
        case .freebsd: return .bsd
        case .macos: return .macos
        case .windows: return .windows
        }
    }
}
