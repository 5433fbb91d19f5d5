import Foundation

/// A file or folder that could not be used, as a sentence naming the path and saying what to do. Built from an errno
/// or from a Foundation error (`CocoaError`, an `NSError` in NSCocoaErrorDomain or NSPOSIXErrorDomain): the one place
/// where file-system failures become words, so none reaches a person as `Error Domain=NSCocoaErrorDomain Code=…`.
public struct FileSystemError: UserFacingError, Equatable, Sendable {
    /// The file or folder (empty when the error did not say).
    public let path: String
    /// The errno behind the failure (0 when unknown).
    public let code: Int32
    /// What was being done, as a verb phrase: "read", "write", "create the folder".
    public let action: String

    /// A failure of `action` on `path` with errno `code`.
    public init(path: String, errno code: Int32, action: String) {
        self.path = path
        self.code = code
        self.action = action
    }

    /// A Foundation or POSIX error as a file-system failure; nil for any other error. `path` and `action` replace
    /// what the error says (a Foundation error names the path it failed on, and its code says read or write).
    public init?(_ error: any Error, path: String? = nil, action: String? = nil) {
        guard let fields = FoundationErrorFields(error), fields.isFileError else { return nil }
        let code: Int32
        if fields.domain == NSPOSIXErrorDomain {
            code = Int32(truncatingIfNeeded: fields.code)
        } else if let underlying = fields.underlyingPOSIXCode {
            code = underlying
        } else {
            code = Self.errno(forCocoaCode: fields.code)
        }
        let isWrite = (512..<1024).contains(fields.code) && fields.domain == NSCocoaErrorDomain
        self.init(path: path ?? fields.path ?? "", errno: code, action: action ?? (isWrite ? "write" : "read"))
    }

    /// errno's own words ("Not a directory"), for logs; empty when the errno is unknown.
    public var detail: String { code == 0 ? "" : String(cString: strerror(code)) }

    /// "Cannot read /x/y: it does not exist (or a folder on its path does not). Check the path."
    public var message: String {
        "Cannot \(action) \(path.isEmpty ? "a file" : path): \(Self.reason(code))"
    }

    /// What errno `code` means for a file someone named, and what to do about it.
    static func reason(_ code: Int32) -> String {
        switch code {
        case ENOENT: return "it does not exist (or a folder on its path does not). Check the path."
        case EACCES, EPERM:
            return "permission denied. Check the permissions of the file and of its folders, or choose another path."
        case ENOTDIR: return "a part of its path is not a folder. Check the path."
        case EISDIR: return "it is a folder. Give the path of a file."
        case EEXIST: return "it already exists. Choose another name."
        case EROFS: return "the file system is read-only. Choose another place."
        case ENOSPC, EDQUOT: return "the disk (or your quota) is full. Free some space and try again."
        case ENAMETOOLONG: return "the name is too long. Choose a shorter path."
        case ELOOP: return "it leads through too many symbolic links. Check where its links point."
        case EMFILE, ENFILE:
            return "too many files are open. Close some programs or raise the limit (ulimit -n), and try again."
        case EIO: return "the disk or the file system reported an input/output error. Check the disk."
        case 0: return "the system did not say why."
        default: return String(cString: strerror(code)) + "."
        }
    }

    /// The errno closest to a Foundation file error code that came without an underlying POSIX error.
    static func errno(forCocoaCode code: Int) -> Int32 {
        switch code {
        case CocoaError.fileNoSuchFile.rawValue, CocoaError.fileReadNoSuchFile.rawValue: return ENOENT
        case CocoaError.fileReadNoPermission.rawValue, CocoaError.fileWriteNoPermission.rawValue,
             CocoaError.fileLocking.rawValue: return EACCES
        case CocoaError.fileWriteFileExists.rawValue: return EEXIST
        case CocoaError.fileWriteOutOfSpace.rawValue: return ENOSPC
        case CocoaError.fileWriteVolumeReadOnly.rawValue: return EROFS
        case CocoaError.fileReadTooLarge.rawValue: return EFBIG
        default: return 0
        }
    }
}

/// The fields of a Foundation error in NSCocoaErrorDomain or NSPOSIXErrorDomain; nil for any other error.
struct FoundationErrorFields {
    let domain: String
    let code: Int
    let path: String?
    let underlyingPOSIXCode: Int32?
    let localizedDescription: String

    /// A POSIX error, or one of Foundation's file errors (codes 0…1023; the coder and property list errors are not).
    var isFileError: Bool {
        domain == NSPOSIXErrorDomain
            || (domain == NSCocoaErrorDomain && (0...1023).contains(code))
    }

    init?(_ error: any Error) {
        let ns = error as NSError
        guard ns.domain == NSCocoaErrorDomain || ns.domain == NSPOSIXErrorDomain else { return nil }
        domain = ns.domain
        code = ns.code
        path = ns.userInfo[NSFilePathErrorKey] as? String ?? (ns.userInfo[NSURLErrorKey] as? URL)?.path
        // Held as any Error (a POSIXError on Linux), which only bridging turns into an NSError.
        if let underlying = (ns.userInfo[NSUnderlyingErrorKey] as? any Error).map({ $0 as NSError }),
           underlying.domain == NSPOSIXErrorDomain {
            underlyingPOSIXCode = Int32(truncatingIfNeeded: underlying.code)
        } else {
            underlyingPOSIXCode = nil
        }
        localizedDescription = ns.localizedDescription
    }
}
