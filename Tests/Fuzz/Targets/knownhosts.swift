import Basics
import Foundation
@testable import SSH

/// Input: known_hosts text, 0xFF, a host name, 0xFF, two bytes of port. The reader and the matcher never crash;
/// a verdict is consistent with the entries; an entry written back reads the same; hashed names match their own
/// name; `*`/`?` matching agrees with a plain dynamic-programming matcher.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let fields = FuzzInput(data, size).fields(3)
    let text = String(decoding: fields[0], as: UTF8.self)
    let host = String(decoding: fields[1], as: UTF8.self)
    let port = fields[2].count >= 2 ? Int(fields[2][0]) << 8 | Int(fields[2][1]) : 22
    let entries = KnownHosts.parse(text, file: "fuzz")
    let lineCount = text.split(separator: "\n", omittingEmptySubsequences: false).count
    _ = KnownHosts.firstForeignLine(text)
    let name = KnownHosts.lookupName(host: host, port: port)

    for entry in entries.prefix(32) {
        require((1...lineCount).contains(entry.line), "line \(entry.line) of \(lineCount)")
        // After a marker, "#x" is a pattern, not a comment (as in OpenSSH's hostfile.c).
        require(!entry.patterns.isEmpty, "empty patterns")
        _ = KnownHosts.patternsMatch(entry.patterns, name)
        _ = entry.key.fingerprint
        if entry.marker == .none {
            let again = KnownHosts.parse("\(entry.patterns) \(entry.key.openSSHText)", file: "again")
            require(again.count == 1 && again[0].key == entry.key && again[0].patterns == entry.patterns,
                    "entry does not read back: \(entry.patterns) \(entry.key.openSSHText)")
        }
    }

    let known = KnownHosts(entriesForFuzzing: entries)
    if let key = entries.first?.key {
        switch known.verify(host: host, port: port, key: key) {
        case .match(let e):
            require(e.marker == .none && e.key == key && KnownHosts.patternsMatch(e.patterns, name), "bad match")
        case .revoked(let e):
            require(e.marker == .revoked && e.key.blob == key.blob, "bad revoked")
        case .changed(let list):
            require(!list.isEmpty && list.allSatisfy { $0.key.type == key.type && $0.key.blob != key.blob },
                    "bad changed")
        case .unknown(let others):
            require(others.allSatisfy { $0.key.type != key.type }, "unknown although a line of this type matches")
        }
        _ = known.knownTypes(host: host, port: port)
    }

    // A name matches itself, plain and hashed (the pattern characters and the hashed marker aside).
    if !name.isEmpty && !name.contains(where: { "*?,!".contains($0) }) && !name.hasPrefix("|1|") {
        require(KnownHosts.patternsMatch(name, name), "\(name.debugDescription) does not match itself")
    }
    let hashed = KnownHosts.hashedPattern(name)
    require(KnownHosts.patternsMatch(hashed, name), "hashed \(name.debugDescription) does not match itself")
    require(!KnownHosts.patternsMatch(hashed, name + "x"), "hashed name matches another")

    // Wildcards against a reference, on the host field as the pattern and the name as the text.
    let pattern = Array(host.utf8.prefix(48)), subject = Array(fields[2].dropFirst(2).prefix(48))
    let matched = pattern.withUnsafeBufferPointer { p in subject.withUnsafeBufferPointer { WildcardPattern.matches(p, $0) } }
    require(matched == referenceMatch(pattern, subject), "WildcardPattern(\(host.debugDescription)) disagrees with the reference")
    return 0
}

/// `*` any run, `?` one byte, anything else itself: whether `p` matches all of `s` (table of prefixes).
func referenceMatch(_ p: [UInt8], _ s: [UInt8]) -> Bool {
    var row = [Bool](repeating: false, count: s.count + 1)
    row[0] = true
    for c in p {
        var next = [Bool](repeating: false, count: s.count + 1)
        for j in 0...s.count {
            if c == UInt8(ascii: "*") {
                next[j] = row[j] || (j > 0 && next[j - 1])
            } else if j > 0 {
                next[j] = row[j - 1] && (c == UInt8(ascii: "?") || c == s[j - 1])
            }
        }
        row = next
    }
    return row[s.count]
}

extension KnownHosts {
    /// A value holding `entries`, without files.
    init(entriesForFuzzing entries: [Entry]) {
        // "/dev/null": the initialiser reads nothing.
        self = try! KnownHosts(userFile: "/dev/null")
        setEntriesForTesting(entries)
    }
}
