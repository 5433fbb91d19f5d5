import ArgumentParser
import Fleet
import Foundation
import Operations

/// The options of `essh exec` that pick several servers and shape a fleet run's output.
struct FleetOptions: ParsableArguments {
    @OptionGroup var selection: SelectionOptions

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
    static let valueOptions: Set<String> = SelectionOptions.valueOptions.union(["--parallel"])

    /// Whether any fleet option was given.
    var isRequested: Bool { selection.isGiven || parallel != nil || json || group }

    func validate(dest: String?, command: [String], timeout: Double?) throws {
        if selection.picksServers && dest != nil {
            throw ValidationError("--all, --tag and --hosts-file pick the servers themselves: put the command after "
                                  + "--, e.g. essh exec --tag web -- uptime.")
        }
        try FleetSelection.validate(selection, words: dest.map { [$0] } ?? [], parallel: parallel)
        if json && group { throw ValidationError("Give --json or --group, not both.") }
        if let timeout, !(timeout > 0) { throw ValidationError("--timeout \(timeout): give a number of seconds above 0.") }
        if command.isEmpty {
            throw ValidationError("Give the command to run after --, e.g. essh exec --all -- uptime.")
        }
    }
}
