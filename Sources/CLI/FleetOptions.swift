import ArgumentParser
import Fleet
import Foundation

/// The options of `essh exec` that pick several servers and shape a fleet run's output.
struct FleetOptions: ParsableArguments {
    @Flag(name: .long, help: "Run the command on every saved server.")
    var all = false

    @Option(name: .long, help: ArgumentHelp("Run the command on the saved servers with this tag.", valueName: "tag"),
            completion: ServerCompletion.tags)
    var tag: String?

    @Option(name: .long, help: ArgumentHelp(
        "With several servers: how many at once (default: the fleet.parallel setting, else 64).", valueName: "n"))
    var parallel: Int?

    @Flag(name: .long, help: """
        With several servers: print {"results":[{"name","status","exit_status","duration_ms","stdout","stderr","error"}]} at the end.
        """)
    var json = false

    @Flag(name: .long, help: "With several servers: print identical outputs once, with the servers that gave them.")
    var group = false

    /// Options that take a value (for `CommandLineArguments`).
    static let valueOptions: Set<String> = ["--tag", "--parallel"]

    /// Whether any fleet option was given.
    var isRequested: Bool { all || tag != nil || parallel != nil || json || group }

    func validate(dest: String?, command: [String], timeout: Double?) throws {
        try FleetSelection.validate(all: all, tag: tag, parallel: parallel)
        if (all || tag != nil) && dest != nil {
            throw ValidationError("--all and --tag pick the servers themselves: put the command after --, e.g. "
                                  + "essh exec --tag web -- uptime.")
        }
        if !all && tag == nil && (dest ?? "").split(separator: ",").allSatisfy({ $0.trimmingCharacters(in: .whitespaces).isEmpty }) {
            throw ValidationError("Say which servers: --all, --tag TAG or NAME,NAME,... (e.g. essh exec web1,web2 -- uptime).")
        }
        if json && group { throw ValidationError("Give --json or --group, not both.") }
        if let timeout, !(timeout > 0) { throw ValidationError("--timeout \(timeout): give a number of seconds above 0.") }
        if command.isEmpty {
            throw ValidationError("Give the command to run after --, e.g. essh exec --all -- uptime.")
        }
    }
}
