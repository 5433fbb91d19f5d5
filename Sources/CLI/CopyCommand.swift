import ArgumentParser
import Basics
import Foundation
import Transfer

/// `essh cp [options] SRC... DEST`: files to or from one server as scp copies them (SFTP, written under a temporary
/// name and renamed into place), or to and from every server a selection picks (`:PATH`).
struct CopyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cp",
        abstract: "Copy files to or from a server (or many at once), as scp does; resumable.",
        discussion: """
            One side is SERVER:PATH and the other a path here: web1:/etc/nginx/nginx.conf ., ./site web1:/srv/, \
            admin@10.0.0.5:2222:/var/log/syslog /tmp/, [fd00::5]:/srv/x. SERVER is a saved server's name, a Host of \
            ~/.ssh/config or [user@]host[:port]; an empty PATH (web1:) is the login folder; a local name holding \
            ":" is written ./NAME, one starting with "-" after --. As with scp: an existing folder DEST receives \
            the sources; several sources need an existing folder; a folder needs -r. Each file is written under a \
            temporary name beside DEST and renamed into place when complete, so nothing half-written is ever seen \
            under its name; after Ctrl-C the partial copy is kept and --resume continues it (after checking that it \
            is a prefix of the source: size, time and its last 64 KiB; else it starts over and says why).
            Many servers: --all, --tag TAG, --hosts-file FILE, or NAME,NAME,... (a pattern, tag:TAG) as the first \
            word, with the servers' side written :PATH. A push (./app.conf :/etc/app/) copies to each; a pull \
            (:/var/log/syslog ./logs/) writes into ./logs/SERVER/. One line per file and server (sha256 with \
            --checksum), servers with the same lines grouped; a summary on stderr. No time limit unless --timeout.
            A progress line on stderr when it is a terminal; --json prints one object per file instead of lines. \
            Exit status: 0 when every file arrived; 1 when a file failed or was skipped (each said on stderr) or \
            a server of a fleet copy failed; 2 when a local source is missing; 64 for a wrong command line; 255 \
            when connecting fails or the connection is lost; 130 when interrupted; the rest as in essh --help.
            """,
        helpNames: SelectionOptions.helpNames
    )

    @OptionGroup var connection: ConnectionOptions

    @OptionGroup var port: CopyPortOption

    @Flag(name: [.customShort("r"), .long], help: "Copy folders with everything in them (symlinks inside as links).")
    var recursive = false

    @Flag(name: [.customShort("p"), .long], help: "Keep modes and modification times (whole seconds).")
    var preserve = false

    @Flag(help: "Continue partial copies an interrupted run left, after checking they are a prefix of the source.")
    var resume = false

    @Flag(help: "Compare sha256 of each file on both ends (the server's sha256sum or shasum).")
    var checksum = false

    @Option(help: ArgumentHelp("Files at a time, 1 to 8 (channels on one connection).", valueName: "n"))
    var parallel = 4

    @Option(help: ArgumentHelp("At most this many bytes per second for the whole copy: 500K, 10M, 1G (K = 1024).",
                               valueName: "rate"))
    var limit: String?

    @Flag(help: """
        One JSON object per file on stdout: {"server","source","destination","status","bytes","sent","sha256","error"}.
        """)
    var json = false

    @Option(help: ArgumentHelp("With several servers: each server's time, connecting included (default: none).",
                               valueName: "seconds"))
    var timeout: Double?

    @OptionGroup var selection: SelectionOptions

    @Argument(help: ArgumentHelp("Sources, then DEST; the server's side is SERVER:PATH (:PATH for many servers).",
                                 valueName: "path"), completion: .file())
    var operands: [String] = []

    /// Options that take a value: `CommandLineArguments` and the raw operand words (`CopyOperands.rawWords`) skip
    /// their values.
    static var valueOptions: Set<String> {
        ConnectionOptions.valueOptions.union(CopyPortOption.valueOptions).union(SelectionOptions.valueOptions)
            .union(["--parallel", "--limit", "--timeout"])
    }

    func validate() throws {
        try connection.validateOptions()
        if !(1...8).contains(parallel) {
            throw ValidationError("--parallel \(parallel): give a number of files at once from 1 to 8.")
        }
        _ = try rate()
        let read = try words()
        if case .fleet(let selectors) = read.servers {
            try FleetSelection.validate(selection, words: selectors, parallel: nil)
            if let timeout, !(timeout > 0) {
                throw ValidationError("--timeout \(timeout): give a number of seconds above 0.")
            }
        } else {
            if selection.isGiven {
                throw ValidationError("--exclude goes with a fleet copy (--all, --tag or NAME,NAME,... with :PATH).")
            }
            if timeout != nil {
                throw ValidationError("--timeout is for a fleet copy (each server's time); a copy to one server "
                                      + "runs until it is done or Ctrl-C.")
            }
        }
    }

    /// `--limit` in bytes per second, or a usage error.
    func rate() throws -> Int64? {
        do throws(CopyRate.Problem) {
            return try limit.map(CopyRate.parse)
        } catch {
            throw ValidationError(error.message)
        }
    }

    /// The operands as this process received them (bytes Swift's arguments would replace kept), read.
    func words() throws -> CopyOperands {
        let argv = (1..<Int(CommandLine.argc)).map { i in
            CommandLine.unsafeArgv[i].map { Array(UnsafeBufferPointer(start: $0, count: strlen($0))) }
                .map { $0.map { UInt8(bitPattern: $0) } } ?? []
        }
        let raw = CopyOperands.rawWords(parsed: operands, argv: argv, subcommand: "cp",
                                        valueOptions: Self.valueOptions)
        do throws(CopyOperands.Problem) {
            return try CopyOperands(raw, optionsPickServers: selection.picksServers)
        } catch {
            throw ValidationError(error.message)
        }
    }

    /// The transfer options the flags ask for.
    func options() throws -> TransferOptions {
        var options = TransferOptions()
        options.recursive = recursive
        options.preserve = preserve
        options.resume = resume
        options.checksum = checksum
        options.parallel = parallel
        options.limit = try rate()
        return options
    }

    func run() throws {
        let read = try words()
        switch read.servers {
        case .one(let server):
            try CopyOne(command: self, server: server, operands: read).run()
        case .fleet(let selectors):
            try CopyFleet(command: self, selectors: selectors, operands: read).run()
        }
    }
}
