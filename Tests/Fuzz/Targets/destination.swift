@testable import SSH

/// DEST as typed (`essh exec DEST`, `essh fleet`, the interface's quick connect): `[user@]host[:port]`, IPv6 as
/// `[::1]:2222` or bare. The parser never crashes; what it accepts names a host without spaces or control characters
/// (a terminal shows it, libssh2 sends the user), a port from 1 to 65535, and reads back the same when written out.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let text = String(decoding: FuzzInput(data, size).bytes, as: UTF8.self)
    let destination: Destination
    do {
        destination = try Destination(parsing: text)
    } catch {
        require(error.kind == .nameNotFound && error.message.contains("is not a destination"), "error \(error)")
        require(!error.message.unicodeScalars.contains(where: isControl), "control character in \(error.message)")
        return 0
    }
    let host = destination.host
    require(!host.isEmpty, "empty host")
    for part in [host, destination.user ?? ""] {
        require(!part.unicodeScalars.contains(where: isControl), "control character in \(part.debugDescription)")
    }
    require(!host.contains(where: \.isWhitespace), "space in host \(host.debugDescription)")
    if let user = destination.user { require(!user.isEmpty, "empty user") }
    if let port = destination.port { require((1...65535).contains(port), "port \(port)") }
    _ = KnownHosts.lookupName(host: host, port: destination.port ?? 22)

    // Written out the way a person would type it, it reads back the same (brackets only mark an IPv6 host). By
    // scalar, as the parser looks: a combining mark after ":" makes one character with it.
    if !host.unicodeScalars.contains(where: { $0 == "[" || $0 == "]" }) {
        let written = (destination.user.map { $0 + "@" } ?? "")
            + (host.unicodeScalars.contains(":") ? "[\(host)]" : host)
            + (destination.port.map { ":\($0)" } ?? "")
        let again = try? Destination(parsing: written)
        require(again == destination, "\(text.debugDescription) → \(written.debugDescription) → \(String(describing: again))")
    }
    return 0
}

/// C0 controls, DEL and C1 controls: what a terminal may obey.
func isControl(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
}
