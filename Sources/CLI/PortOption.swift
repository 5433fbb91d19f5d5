import ArgumentParser

/// The port to connect to, as the command line gave it, with the option's spelling for messages. The port is an
/// option group of its own, outside `ConnectionOptions`, because its letter differs: `-p` for `exec`, `shell`,
/// `net`, `forward` and `proxy` (as ssh), `-P`/`--port` for `cp`, where `-p` keeps modes and times (as scp).
struct PortChoice: Sendable, Equatable {
    /// The port given; nil: DEST's, a saved server's, ssh_config's or 22.
    var value: Int?
    /// How the option is written, for messages ("-p", "-P").
    var flag = "-p"

    /// Throws a usage error for a port outside 1...65535.
    func validate() throws {
        if let value, !(1...65535).contains(value) {
            throw ValidationError("\(flag) \(value): a port is a number from 1 to 65535.")
        }
    }
}

/// `-p PORT`, as ssh spells it (`exec`, `shell`, `net`, `forward`, `proxy`).
struct PortOption: ParsableArguments {
    @Option(name: .short, help: "Port to connect to (default 22, or the port in DEST).")
    var port: Int?

    /// Options that take a value (for `CommandLineArguments`).
    static let valueOptions: Set<String> = ["-p"]

    var choice: PortChoice { PortChoice(value: port, flag: "-p") }

    func validate() throws { try choice.validate() }
}

/// `-P PORT` or `--port PORT`, as scp spells it (`cp`, whose `-p` keeps modes and times).
struct CopyPortOption: ParsableArguments {
    @Option(name: [.customShort("P"), .long],
            help: "Port to connect to (default 22, or the port in the server part: host:2222:path).")
    var port: Int?

    /// Options that take a value (for `CommandLineArguments`).
    static let valueOptions: Set<String> = ["-P", "--port"]

    var choice: PortChoice { PortChoice(value: port, flag: "-P") }

    func validate() throws { try choice.validate() }
}
