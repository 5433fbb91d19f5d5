// swift-tools-version:6.0
// eSSH — a terminal SSH client and server manager.
// Each module's targets sit in their own list so the layout (docs/ARCHITECTURE.md) reads straight off this file.
import PackageDescription

let argumentParser: Target.Dependency = .product(name: "ArgumentParser", package: "swift-argument-parser")
let logging: Target.Dependency = .product(name: "Logging", package: "swift-log")
let crypto: Target.Dependency = .product(name: "Crypto", package: "swift-crypto")
let grdb: Target.Dependency = .product(name: "GRDB", package: "GRDB.swift")
let cryptoExtras: Target.Dependency = .product(name: "_CryptoExtras", package: "swift-crypto")

// C libraries from Debian, seen through small header shims. Only SSH imports CLibSSH2.
let systemLibraries: [Target] = [
    // No apt provider: the libssh2 linked is always the one Sources/CLibSSH2/libssh2-from-debian.sh builds (Debian's
    // source with eSSH's patches), never libssh2-1-dev's; shim.h stops a build against any other.
    .systemLibrary(name: "CLibSSH2", path: "Sources/CLibSSH2", pkgConfig: "libssh2"),
    .systemLibrary(
        name: "CNCursesW", path: "Sources/CNCursesW", pkgConfig: "ncursesw", providers: [.apt(["libncurses-dev"])]),
]

// libpq's header (Debian's libpq-dev) and a loader that opens libpq.so.5 with dlopen when the team layer first needs
// it, so no other essh run carries libpq's libraries (Sources/CLibPQ/include/CLibPQ.h says why). Only Team uses it.
let libpqLoader: Target = .target(name: "CLibPQ", path: "Sources/CLibPQ")

// SSH: sessions, channels, authentication, known_hosts. The only importer of libssh2.
let sshTargets: [Target] = [
    .target(name: "SSH", dependencies: ["CLibSSH2", crypto, "LocalProcess", "Basics"]),
    .testTarget(name: "SSHTests", dependencies: ["SSH", "TestSupport", crypto], exclude: ["Fixtures"]),
]

// InteractiveShell: a shell on the server in the person's own terminal (raw mode, PTY, resizes, keepalives, `~.`),
// shared by `essh shell` and the terminal interface. Pure Swift over SSH's ShellChannel.
let interactiveShellTargets: [Target] = [
    .target(name: "InteractiveShell", dependencies: ["SSH", "LocalProcess", "Basics"]),
    .testTarget(name: "InteractiveShellTests", dependencies: ["InteractiveShell", "SSH", "TestSupport"]),
]

// NetParsers: text of ifconfig / ip / ipconfig / route / netstat / ss -> typed models and tables. No I/O.
let netParsersTargets: [Target] = [
    .target(name: "NetParsers", dependencies: ["TextWidth", "Basics"]),
    .testTarget(name: "NetParsersTests", dependencies: ["NetParsers", "Basics", "TestSupport"], exclude: ["Fixtures"]),
]

// TUIKit: cells, buffer and diff, display width, layout, sanitizer, scrollback, widgets, keys, the Terminal
// protocol; pure Swift. TerminalCurses: the only importer of CNCursesW. TUIKitDemo: a small program proving both
// in a real terminal (driven in tmux by TerminalCursesTests).
let tuiTargets: [Target] = [
    .target(name: "TUIKit", dependencies: ["TextWidth"]),
    .target(name: "TerminalCurses", dependencies: ["TUIKit", "CNCursesW", "LocalProcess", "Basics"]),
    .executableTarget(name: "TUIKitDemo", dependencies: ["TUIKit", "TerminalCurses"]),
    .testTarget(name: "TUIKitTests", dependencies: ["TUIKit", "TestSupport"], exclude: ["Golden"]),
    .testTarget(name: "TerminalCursesTests", dependencies: ["TUIKitDemo", "TerminalCurses", "TUIKit", "TestSupport"]),
]

// TextWidth: terminal column width of text (wide, combining, emoji) and alignment, and the sanitiser family
// (TextSanitizer for the interface's cells, TerminalGuard for remote bytes on the person's terminal); pure. Shared by
// NetParsers' table formatter, TUIKit and the CLI so they lay out and neutralise text alike.
let textWidthTargets: [Target] = [
    .target(name: "TextWidth"),
    .testTarget(name: "TextWidthTests", dependencies: ["TextWidth", "TestSupport"]),
]

// LocalProcess: starting local programs (sendmail, a pipe's command) with clean signals and descriptors; waiting;
// writing all of a buffer. Foundation only.
let localProcessTargets: [Target] = [
    .target(name: "LocalProcess", dependencies: ["Basics"]),
    .testTarget(name: "LocalProcessTests", dependencies: ["LocalProcess"]),
]

// Basics: small value types and formatters several modules need (capped output, duration text). Foundation only,
// no dependencies, so any module may use it.
let basicsTargets: [Target] = [
    .target(name: "Basics"),
    .testTarget(name: "BasicsTests", dependencies: ["Basics"]),
]

// Shared helpers for tests: finding the real test servers (Tests/Harness) and the built binary.
let testSupportTargets: [Target] = [
    .target(name: "TestSupport", dependencies: ["LocalProcess"], path: "Tests/TestSupport"),
    .testTarget(name: "PostgresHarnessTests", dependencies: ["TestSupport"]),  // PostgresCluster on real PostgreSQL
]

// Inventory: the SQLite store (servers, check results, history, settings) and the ssh_config reader.
let inventoryTargets: [Target] = [
    .target(name: "Inventory", dependencies: [grdb, "Basics"]),
    .testTarget(name: "InventoryTests", dependencies: ["Inventory", "Basics", "TestSupport", grdb]),
]

// Mail: message building (RFC 5322 headers, RFC 2047, quoted-printable, attachments) and the sendmail transport.
// Pure Foundation: no UI, no database.
let mailTargets: [Target] = [
    .target(name: "Mail", dependencies: ["LocalProcess", "Basics"]),
    .testTarget(name: "MailTests", dependencies: ["Mail", "TestSupport"]),
]

// Reachability: online checks of thousands of servers at once from one epoll loop. No database, no SSH.
// CEpoll: epoll and eventfd headers (in libc, so nothing to link); only Reachability imports it.
let reachabilityTargets: [Target] = [
    .systemLibrary(name: "CEpoll", path: "Sources/CEpoll"),
    .target(name: "Reachability", dependencies: ["CEpoll", "Basics"]),
    .testTarget(name: "ReachabilityTests", dependencies: ["Reachability", "Basics", "TestSupport"]),
]

// RemoteCommands: the OS-aware quick commands (detect the system, run the plan with fallbacks, parse) on an open
// SSH session. No terminal, no database writes; used by `essh net` and the terminal interface.
let remoteCommandsTargets: [Target] = [
    .target(name: "RemoteCommands", dependencies: ["SSH", "NetParsers", "Basics"]),
    .testTarget(name: "RemoteCommandsTests", dependencies: ["RemoteCommands", "SSH", "NetParsers", "TestSupport"]),
]

// Fleet: one command on many servers at once (bounded parallelism, a deadline per server, results as each finishes),
// grouping of identical outputs, the text report and the JSON. Knows SSH only; callers build the targets.
let fleetTargets: [Target] = [
    .target(name: "Fleet", dependencies: ["SSH", "Basics"]),
    .testTarget(name: "FleetTests", dependencies: ["Fleet", "SSH", "TestSupport"]),
    // Fleet runs and online checks through bastions, against the harness's namespace topology (real sshd).
    .testTarget(name: "JumpFleetTests", dependencies: ["Basics", "Fleet", "Operations", "Reachability", "SSH", "TestSupport"]),
]

// Forwarding: port forwards over one session's ChannelRelay (-L, -R, -D with a SOCKS5/4a server), the OpenSSH spec
// parser, stdin/stdout joined to a channel (`essh proxy`); a `Forwarder` a front end starts, stops and reads figures
// from. No terminal, no database.
let forwardingTargets: [Target] = [
    .target(name: "Forwarding", dependencies: ["SSH", "Basics", "LocalProcess"]),
    .testTarget(name: "ForwardingTests", dependencies: ["Forwarding", "SSH", "LocalProcess", "TestSupport"]),
]

// Transfer: copying files (`essh cp`, the Files screen), issue 16. Its pure parts first: scp-style operands
// (TransferEndpoint), the name a file is written under until complete (PartialName), what --resume may do
// (ResumeDecision). No I/O, no terminal, no database.
let transferTargets: [Target] = [
    .target(name: "Transfer", dependencies: ["Basics", "SSH", crypto]),
    .testTarget(name: "TransferTests", dependencies: ["Transfer", "SSH"]),
    // Transfer.run against the harness's real sshd (not in FAST_TESTS: it needs the servers).
    .testTarget(name: "TransferIntegrationTests", dependencies: ["Transfer", "SSH", "Basics", "TestSupport", crypto]),
]

// Operations: the policy both front ends share, written once — a saved server or a typed destination as session
// options (ConnectionProfile), who gets a fleet run's password (FleetTargets), the typed settings table, mail
// settings and the outbox, the local user. Used by CLI and App; knows no terminal.
let operationsTargets: [Target] = [
    .target(name: "Operations", dependencies: ["Basics", "SSH", "Inventory", "Mail", "Fleet", "Reachability", "Forwarding",
                                               "LocalProcess", "TextWidth", "Transfer", "Vault"]),
    .testTarget(name: "OperationsTests", dependencies: ["Operations", "SSH", "Inventory", "Fleet", "Reachability",
                                                       "Forwarding", "LocalProcess", "TestSupport", "Transfer", "Vault"]),
]

// AppCore: the full-screen interface's pure core, organised by screen (state, messages, update -> effects, views,
// key tables). No I/O: no threads, files, processes, sockets, SSH sessions, database or mail transport; value types
// of those modules only (settings and capped bytes come from Operations and Basics as values).
// App: the runtime. The loop (AppRuntime) runs the core's effects through `EffectHandler`; the live handler hands
// each job to one worker (session, store, checks, mail, fleet, team). TerminalCurses only at its entry point; Team
// (PostgreSQL) only in the team worker — AppCore gets the team's status as Inventory's plain values.
// AppEndToEndTests drive the real essh binary in tmux.
let appTargets: [Target] = [
    .target(name: "AppCore", dependencies: [
        "TUIKit", "SSH", "Inventory", "Reachability", "NetParsers", "RemoteCommands", "Mail", "Fleet",
        "InteractiveShell", "LocalProcess", "Operations", "Basics", "Forwarding", "Transfer",
    ]),
    .target(name: "App", dependencies: [
        "AppCore", "TUIKit", "TerminalCurses", "SSH", "Inventory", "Reachability", "NetParsers", "RemoteCommands",
        "Mail", "Fleet", "InteractiveShell", "LocalProcess", "Operations", "Basics", "Forwarding", "Transfer",
        "Vault", "Team",
    ]),
    .testTarget(name: "AppCoreTests", dependencies: ["AppCore", "TUIKit", "Inventory", "TestSupport", "Operations",
                                                     "Fleet", "Mail", "NetParsers", "Reachability", "SSH",
                                                     "InteractiveShell", "Basics", "Forwarding", "Transfer"],
                exclude: ["Golden"]),
    .testTarget(name: "AppTests", dependencies: [
        "App", "AppCore", "TUIKit", "Inventory", "TestSupport", "InteractiveShell", "Mail", "Fleet", "SSH",
        "RemoteCommands", "Operations", "Reachability", "Basics", "Forwarding", "Transfer", "Vault", "Team",
    ]),
    .testTarget(name: "AppEndToEndTests", dependencies: ["essh", "TestSupport", "Team", "Inventory"]),
]

// CLI: the command line's subcommands (swift-argument-parser), built on the engines and Operations; no terminal
// interface. essh: the composition root — the root command, which runs a subcommand or opens the interface (App).
let cliTargets: [Target] = [
    .target(name: "CLI", dependencies: [
        "SSH", "NetParsers", "Inventory", "Reachability", "RemoteCommands", "Mail", "Fleet", "TextWidth",
        argumentParser, logging, "InteractiveShell", "LocalProcess", "Operations", "Basics", "Forwarding",
        "Transfer", "Vault", "Team",
    ]),
    .executableTarget(name: "essh", dependencies: ["CLI", "App", "SSH", "Fleet", argumentParser]),
    .testTarget(name: "EsshCLITests", dependencies: ["essh", "CLI", "TestSupport", "Inventory", "Mail", "SSH", "Basics",
                                                  "LocalProcess", "Transfer", "Operations", "Vault"]),
]

// Vault: the credential vault (issue 17). The age file format with a passphrase (scrypt) recipient (AgeFile,
// AgeKey), so Debian's `age -d` can open the vault; the JSON document inside (VaultDocument); the file's edge with
// locked, atomic writes (VaultStore); the unlock agent and its client (VaultAgent). No terminal, no database.
// CVaultGuard: prctl and SO_PEERCRED for the agent; only Vault imports it.
let vaultTargets: [Target] = [
    .systemLibrary(name: "CVaultGuard", path: "Sources/CVaultGuard"),
    .target(name: "Vault", dependencies: ["Basics", "LocalProcess", "CVaultGuard", crypto, cryptoExtras]),
    .testTarget(name: "VaultTests", dependencies: ["Vault", "Basics", crypto]),
    // AgeFile against Debian's `age` binary, both ways, on a pseudo-terminal (not in FAST_TESTS: needs `age`).
    .testTarget(name: "VaultInteropTests", dependencies: ["Vault", "TestSupport"]),
]

// Team: a team's shared server list on PostgreSQL (issue 18). libpq through CLibPQ (only Team imports it): the
// connection (PGConnection), the team schema's migrations, the team database's operations (TeamDatabase) and the
// sync of the member's SQLite cache (TeamSync). Used only by the CLI's team commands and the App's team worker.
let teamTargets: [Target] = [
    libpqLoader,
    .target(name: "Team", dependencies: ["CLibPQ", "Inventory", "Basics"]),
    // Against real PostgreSQL clusters (TestSupport's PostgresCluster); not in FAST_TESTS.
    .testTarget(name: "TeamTests", dependencies: ["Team", "Inventory", "Basics", "TestSupport"]),
]

let package = Package(
    name: "essh",
    products: [.executable(name: "essh", targets: ["essh"])],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
    ],
    targets: systemLibraries + basicsTargets + localProcessTargets + textWidthTargets + sshTargets + netParsersTargets
        + tuiTargets + testSupportTargets + inventoryTargets + mailTargets + reachabilityTargets + remoteCommandsTargets
        + fleetTargets + operationsTargets + appTargets + cliTargets
        + interactiveShellTargets + forwardingTargets + transferTargets + vaultTargets + teamTargets,
    swiftLanguageModes: [.v6]
)
