import Foundation
@testable import Inventory

/// The fuzzer's input as a home's ssh_config files: the text up to the first 0xFF is ~/.ssh/config, each further
/// field is ~/.ssh/conf.d/N (N from 1), so Include (globs, ~, relative paths, nesting, loops) reads them without
/// touching the disk.
struct FuzzConfigSource: SSHConfigSource {
    let files: [String: String]

    func paths(matching pattern: String) -> [String] {
        files.keys.filter { fnmatch(pattern, $0, FNM_PATHNAME) == 0 }.sorted()
    }

    func read(_ path: String) throws -> String {
        guard let text = files[path] else { throw CocoaError(.fileNoSuchFile) }
        return text
    }
}

let home = "/home/fuzz"

/// The reader never crashes and never loops; what it returns is what `ssh -G` could: concrete aliases, ports in
/// range, and no control character in any value (lines holding one are refused).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let fields = FuzzInput(data, size).fields(6)
    var files: [String: String] = [:]
    for (i, field) in fields.enumerated().dropFirst() where !field.isEmpty {
        files["\(home)/.ssh/conf.d/\(i)"] = String(decoding: field, as: UTF8.self)
    }
    let main = String(decoding: fields[0], as: UTF8.self)
    let reader = SSHConfigReader(home: home, localUser: "fuzz", source: FuzzConfigSource(files: files))
    let result: SSHConfigReader.Result
    do {
        result = try reader.evaluate(text: main, file: "\(home)/.ssh/config")
    } catch {
        require(error.kind == .sshConfig, "unexpected error kind \(error.kind)")
        return 0
    }
    var aliases = Set<String>()
    for host in result.hosts {
        require(aliases.insert(host.alias).inserted, "alias \(host.alias) twice")
        require(!host.alias.isEmpty && !host.alias.hasPrefix("!") && !host.alias.contains(where: { "*?".contains($0) }),
                "alias \(host.alias) is a pattern")
        if let port = host.port { require((1...65535).contains(port), "port \(port)") }
        let values = [host.alias, host.hostName, host.user, host.identityFile, host.algorithms.kex,
                      host.algorithms.hostKeys, host.algorithms.ciphers, host.algorithms.macs].compactMap { $0 }
        for value in values {
            require(!value.unicodeScalars.contains(where: SSHConfigReader.isControl),
                    "control character in \(value.debugDescription)")
        }
    }
    // What is said about skipped hosts and unused options reaches a terminal: no control character in it.
    let said = result.skipped.flatMap { [$0.alias, $0.reason] } + result.hosts.flatMap(\.unusedOptions)
    for text in said {
        require(!text.unicodeScalars.contains(where: SSHConfigReader.isControl),
                "control character in \(text.debugDescription)")
    }
    require(Set(result.skipped.map(\.alias)).isDisjoint(with: result.hosts.map(\.alias)),
            "a host both kept and skipped")
    // Looking each alias up, kept or skipped (and a name no Host line names), ends, and gives what `ssh -G` could:
    // values without control characters, each with a line, a block for every value.
    let names = result.hosts.map(\.alias) + result.skipped.map(\.alias) + ["fuzz-unnamed"]
    if let lookups = try? reader.lookup(names, text: main, file: "\(home)/.ssh/config") {
        for found in lookups {
            let values = [found.hostName, found.user, found.port, found.proxy].compactMap { $0 } + found.identityFiles
            for value in values {
                require(!value.text.unicodeScalars.contains(where: SSHConfigReader.isControl),
                        "control character in \(value.text.debugDescription)")
                require(value.location.line >= 1, "value \(value.keyword) without a line")
            }
            require(found.isEmpty || !found.blocks.isEmpty, "values of \(found.name) from no block")
        }
    }
    // Windows line ends read as Unix ones (a file without CR of its own, where CR LF cannot merge with another CR).
    if !main.contains("\r") && files.isEmpty {
        let crlf = try? reader.evaluate(text: main.replacingOccurrences(of: "\n", with: "\r\n"), file: "\(home)/.ssh/config")
        require(crlf?.hosts == result.hosts && crlf?.skipped.map(\.alias) == result.skipped.map(\.alias),
                "CR LF read differently")
    }
    return 0
}
