/// What the planner needs of either side: a file's attributes, a folder's names, a link's target.
/// `LocalFiles` and `RemoteFiles` are the real ones; tests use an in-memory tree.
public protocol FileTree: Sendable {
    /// Nil when nothing is there.
    func info(_ path: [UInt8], followLinks: Bool) throws(TransferError) -> FileInfo?
    /// The folder's names without `.` and `..`; each entry's info is of the name itself (not followed).
    func list(_ directory: [UInt8]) throws(TransferError) -> [FileEntry]
    func readLink(_ path: [UInt8]) throws(TransferError) -> [UInt8]
    /// How the side is named in sentences: "this machine", "web1".
    var placeName: String { get }
    /// What tells a folder apart however it is reached (device and inode here), or nil where the side gives none
    /// (SFTP version 3 does not): a walk never enters the same folder twice.
    func folderIdentity(_ path: [UInt8]) -> String?
}

extension FileTree {
    public func folderIdentity(_ path: [UInt8]) -> String? { nil }
}
