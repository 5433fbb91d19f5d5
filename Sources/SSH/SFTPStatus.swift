/// An SFTP status code (the FX_ numbers of draft-ietf-secsh-filexfer; OpenSSH sends 0–8), with its meaning in words.
public enum SFTPStatus: UInt32, Sendable, Equatable {
    case ok = 0
    case endOfFile = 1
    case noSuchFile = 2
    case permissionDenied = 3
    case failure = 4
    case badMessage = 5
    case noConnection = 6
    case connectionLost = 7
    case unsupported = 8
    case invalidHandle = 9
    case noSuchPath = 10
    case alreadyExists = 11
    case writeProtected = 12
    case noMedia = 13
    case noSpace = 14
    case quotaExceeded = 15
    case unknownPrincipal = 16
    case lockConflict = 17
    case directoryNotEmpty = 18
    case notADirectory = 19
    case invalidFileName = 20
    case linkLoop = 21
    /// A code outside 0–21.
    case unknown = 0xFFFF_FFFF

    public init(code: UInt32) {
        self = SFTPStatus(rawValue: code) ?? .unknown
    }

    /// What the code means, as words that fit after a path and a colon.
    public var words: String {
        switch self {
        case .ok: return "no error"
        case .endOfFile: return "end of file"
        case .noSuchFile: return "no such file or folder"
        case .permissionDenied: return "permission denied"
        case .failure: return "the server's file operation failed"
        case .badMessage: return "the server found a malformed request"
        case .noConnection: return "no connection"
        case .connectionLost: return "connection lost"
        case .unsupported: return "the server does not support this operation"
        case .invalidHandle: return "invalid file handle"
        case .noSuchPath: return "no such path"
        case .alreadyExists: return "it already exists"
        case .writeProtected: return "the file system is read-only"
        case .noMedia: return "no medium"
        case .noSpace: return "no space left"
        case .quotaExceeded: return "disk quota exceeded"
        case .unknownPrincipal: return "unknown user or group"
        case .lockConflict: return "locked by another process"
        case .directoryNotEmpty: return "the folder is not empty"
        case .notADirectory: return "not a folder"
        case .invalidFileName: return "invalid file name"
        case .linkLoop: return "too many levels of symbolic links"
        case .unknown: return "unknown SFTP error"
        }
    }
}
