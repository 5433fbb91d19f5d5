import ArgumentParser
import Basics
import Foundation
import Inventory
import Operations

/// The options that pick servers, the same for every command that picks them (`exec`, `net`, `check`,
/// `servers list`): `--all`, `--tag` (repeatable: any of the tags), `--exclude`, and `-h`/`--hosts-file` (as pssh).
/// With the command's own words (`web[01-20]`, `db*`, `tag:db`, `!web3`) they make one `ServerSelection`, the
/// grammar and evaluator Operations keeps for the CLI and the interface alike. (`-h` is a hosts file here, as in
/// pssh; these commands show their help with `--help`.)
struct SelectionOptions: ParsableArguments {
    @Flag(name: .long, help: "Every saved server.")
    var all = false

    @Option(name: .long, help: ArgumentHelp(
        "The saved servers with this tag; repeat (or give tag,tag) for the servers with any of them.",
        valueName: "tag"), completion: ServerCompletion.tags)
    var tag: [String] = []

    @Option(name: .long, help: ArgumentHelp(
        "Leave out what this selector names: a name, a pattern (web[01-05], db*) or tag:TAG; repeatable.",
        valueName: "selector"), completion: ServerCompletion.selectors)
    var exclude: [String] = []

    @Option(name: [.customShort("h"), .customLong("hosts-file")], help: ArgumentHelp(
        "Also the servers in FILE, one a line: [user@]host[:port] or a saved name; # starts a comment (as pssh -h).",
        valueName: "file"), completion: .file())
    var hostsFile: [String] = []

    /// Options that take a value (for `CommandLineArguments`).
    static let valueOptions: Set<String> = ["--tag", "--exclude", "-h", "--hosts-file"]

    /// The help names of the commands that have these options: `-h` is the hosts file.
    static let helpNames: NameSpecification = [.long]

    /// Whether a command's DEST names more than one server (a list, even of one: `web1,`; a pattern, a tag, an
    /// exclusion); a selector written wrong counts as many, so the fleet path's checks say what is wrong with it.
    static func namesMany(_ dest: String) -> Bool {
        guard let selectors = try? ServerSelector.list(dest) else { return true }
        return dest.contains(",") || ServerSelection(selectors: selectors).isMany
    }

    /// Whether any of these options was given.
    var isGiven: Bool { all || !tag.isEmpty || !exclude.isEmpty || !hostsFile.isEmpty }

    /// Whether the options themselves pick servers (so no DEST is expected beside them).
    var picksServers: Bool { all || !tag.isEmpty || !hostsFile.isEmpty }

    /// The selectors of the options and of `words` (a command's own selector arguments), without the hosts files
    /// (read when the command runs). A selector written wrong is a usage error (exit 64) saying how to write it.
    func selectors(_ words: [String]) throws -> [ServerSelector] {
        do throws(SelectionProblem) {
            var selectors: [ServerSelector] = []
            for value in tag {
                let tags = ServerSelector.words(value)
                if tags.isEmpty { throw SelectionProblem(.malformed, "--tag needs a tag name, e.g. --tag web.") }
                selectors += tags.map { .tag($0.lowercased().hasPrefix("tag:") ? String($0.dropFirst(4)) : $0) }
            }
            for word in words { selectors += try ServerSelector.list(word) }
            for value in exclude {
                let excluded = try ServerSelector.list(value)
                if excluded.isEmpty { throw SelectionProblem(.malformed, "--exclude needs what to leave out.") }
                for selector in excluded {
                    if selector.isExclusion {
                        throw SelectionProblem(.malformed, """
                            --exclude \(HostAddress.shown(value)): --exclude takes what to leave out, without ! \
                            (--exclude web3, or !web3 among the servers).
                            """)
                    }
                    selectors.append(.not(selector))
                }
            }
            return selectors
        } catch {
            throw ValidationError(error.message)
        }
    }

    /// The selection: these options, `words`, and each hosts file's lines. A hosts file that cannot be read or has
    /// a line that is no host ends the command as bad input (2), naming the file and the line.
    func selection(_ words: [String]) throws -> ServerSelection {
        var selectors = try self.selectors(words)
        for file in hostsFile {
            let bytes = try InputFile.read(file, action: "read the hosts file")
            do throws(SelectionProblem) {
                selectors += try HostsFile.selectors(String(decoding: bytes, as: UTF8.self), file: file)
            } catch {
                throw CommandFailure(.badInput, error.message)
            }
        }
        return ServerSelection(all: all, selectors: selectors)
    }

    /// The picks of `selection` among the saved servers of `store` (none without a database). A selector that
    /// names nothing ends the command as bad input, saying so; without a database the sentence says there is none
    /// at `database.path` (and nothing was created).
    static func resolve(_ selection: ServerSelection, store: Inventory?, database: DatabaseOptions, hosts: Bool,
                        defaultAll: Bool) throws -> [ServerSelection.Pick] {
        let servers = try store?.servers() ?? []
        do throws(SelectionProblem) {
            return try selection.resolve(servers, hosts: hosts, defaultAll: defaultAll)
        } catch {
            let note = store == nil ? " " + database.missingNote : ""
            throw CommandFailure(error.kind == .malformed || error.kind == .nothingSelected ? .usage : .badInput,
                                 error.message + note)
        }
    }
}
