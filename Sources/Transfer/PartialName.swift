import Crypto

/// The name a file is written under until it is complete and renamed into place: `.NAME.essh-<8 hex>.part` beside
/// the destination. The hex is of the source's path, size and modification time, so a rerun of the same copy finds
/// its own partial (for `--resume`), and a changed source gets a new name instead of continuing an old one.
public enum PartialName {
    /// The partial's file name for `destinationName` (the final name's last component).
    public static func name(for destinationName: [UInt8], sourcePath: [UInt8], size: Int64,
                            modified: Int64) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(data: sourcePath)
        hasher.update(data: [0])
        hasher.update(data: Array(String(size).utf8) + [0] + Array(String(modified).utf8))
        let hex = hasher.finalize().prefix(4).map { byte in
            let digits = Array("0123456789abcdef".utf8)
            return [digits[Int(byte >> 4)], digits[Int(byte & 0xF)]]
        }.joined()
        return Array(".".utf8) + destinationName + Array(".essh-".utf8) + hex + Array(".part".utf8)
    }

    /// Whether `name` is a partial eSSH left for `destinationName` (of any source): stale ones go when a copy of
    /// another source completes.
    public static func isPartial(_ name: [UInt8], of destinationName: [UInt8]) -> Bool {
        let prefix = Array(".".utf8) + destinationName + Array(".essh-".utf8)
        let suffix = Array(".part".utf8)
        guard name.count == prefix.count + 8 + suffix.count else { return false }
        let hex = name[prefix.count..<(prefix.count + 8)]
        return name.starts(with: prefix) && name.suffix(suffix.count).elementsEqual(suffix)
            && hex.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
                || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0) }
    }

    /// A partial name no earlier run made (8 random hex digits): used when the usual name is taken by something
    /// that is not the user's own partial, which is never opened.
    public static func fresh(for destinationName: [UInt8]) -> [UInt8] {
        var random = SystemRandomNumberGenerator()
        let digits = Array("0123456789abcdef".utf8)
        let hex = (0..<8).map { _ in digits[Int(random.next() % 16)] }
        return Array(".".utf8) + destinationName + Array(".essh-".utf8) + hex + Array(".part".utf8)
    }
}
