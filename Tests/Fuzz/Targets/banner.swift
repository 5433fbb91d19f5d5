@testable import Reachability
@testable import SSH

/// What a server sends first, read two ways: the check's banner verdict (`essh check`) and the KEXINIT reader that
/// explains a failed negotiation. Both take bytes as the socket gives them, so the input is also fed in chunks
/// (cut by its first byte): the answer must not depend on how the bytes arrived.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = FuzzInput(data, size).bytes
    let chunks = FuzzInput.chunks(bytes, seed: bytes.first ?? 0)
    checkBanner(bytes, chunks)
    checkKexInit(bytes, chunks)
    return 0
}

/// The check loop appends what each read gives and asks again until the answer is not `needMore` (at the end of
/// the stream with `ended`); a banner is printable ASCII of at most 255 characters.
private func checkBanner(_ bytes: [UInt8], _ chunks: [ArraySlice<UInt8>]) {
    var buffer: [UInt8] = []
    var answer: BannerParser.Verdict = .needMore
    for chunk in chunks where answer == .needMore {
        buffer += chunk
        answer = BannerParser.verdict(buffer, ended: false)
    }
    if answer == .needMore { answer = BannerParser.verdict(buffer, ended: true) }
    // However the bytes arrived, the same kind of answer (the text shown may be cut at another point).
    let whole = BannerParser.verdict(bytes, ended: true)
    switch (answer, whole) {
    case (.ssh(let a), .ssh(let w)): require(a == w, "chunked \(a.debugDescription) but whole \(w.debugDescription)")
    case (.notSSH, .notSSH): break
    default: require(false, "chunked \(answer) but whole \(whole)")
    }
    switch answer {
    case .ssh(let text), .notSSH(let text):
        require(text.utf8.count <= BannerParser.maxLine, "banner of \(text.utf8.count) bytes")
        require(text.utf8.allSatisfy { (0x20...0x7E).contains($0) }, "banner not printable: \(text.debugDescription)")
        if case .ssh = answer { require(text.hasPrefix("SSH-"), "SSH banner \(text.debugDescription)") }
    case .needMore:
        require(false, "no answer after the peer closed")
    }
}

/// Fed whole or in chunks, the reader gives the same outcome: the same version and lists, the same error, or
/// still waiting; every name it returns is printable ASCII.
private func checkKexInit(_ bytes: [UInt8], _ chunks: [ArraySlice<UInt8>]) {
    var whole = KexInitReader()
    let wholeOutcome = outcome { () throws(SSHError) in try whole.feed(bytes) }
    var split = KexInitReader()
    var splitOutcome = "needMore"
    for chunk in chunks {
        splitOutcome = outcome { () throws(SSHError) in try split.feed(chunk) }
        if splitOutcome != "needMore" { break }
    }
    require(wholeOutcome == splitOutcome, "whole: \(wholeOutcome)\nchunks: \(splitOutcome)")
}

private func outcome(_ step: () throws(SSHError) -> KexInitReader.Step) -> String {
    do throws(SSHError) {
        switch try step() {
        case .needMore:
            return "needMore"
        case .done(let version, let kexInit):
            let lists = [kexInit.kex, kexInit.hostKeys, kexInit.ciphersClientToServer, kexInit.ciphersServerToClient,
                         kexInit.macsClientToServer, kexInit.macsServerToClient, kexInit.compressionClientToServer,
                         kexInit.compressionServerToClient, kexInit.languagesClientToServer,
                         kexInit.languagesServerToClient]
            for text in [version] + lists.joined() {
                require(text.utf8.allSatisfy { (0x20...0x7E).contains($0) }, "not printable: \(text.debugDescription)")
            }
            _ = kexInit.kexMethods
            return "done \(version) \(lists) \(kexInit.firstKexPacketFollows)"
        }
    } catch {
        return "error \(error.kind) \(error.detail)"
    }
}
