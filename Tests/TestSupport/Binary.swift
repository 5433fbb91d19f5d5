import Foundation

/// The result of running a program to its end.
public struct RunResult: Sendable {
    public let status: Int32
    public let stdout: Data
    public let stderr: Data
    public var out: String { String(decoding: stdout, as: UTF8.self) }
    public var err: String { String(decoding: stderr, as: UTF8.self) }
}

/// Runs the built `essh` binary (or any program) the way a user or a script would.
public enum Binary {
    /// The `essh` executable built beside the test bundle.
    public static var essh: String { product("essh") }

    /// An executable product (`essh`, `TUIKitDemo`) built beside the test bundle.
    public static func product(_ name: String) -> String {
        var candidates: [String] = []
        let argv0 = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var dir = argv0.deletingLastPathComponent()
        for _ in 0..<4 {
            candidates.append(dir.appendingPathComponent(name).path)
            dir = dir.deletingLastPathComponent()
        }
        candidates.append(RepoPaths.root + "/.build/debug/" + name)
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) } ?? candidates.last!
    }

    /// Runs `essh ARGS`, feeding `stdin`, with `environment` added to a clean copy of ours.
    public static func runEssh(_ args: [String], stdin: Data? = nil, environment: [String: String] = [:],
                               timeout: TimeInterval = 60) throws -> RunResult {
        try run(essh, args, stdin: stdin, environment: environment, timeout: timeout)
    }

    /// Runs a program to its end (killing it after `timeout`), collecting stdout and stderr in full. NO_COLOR is
    /// set, as for a script; posix_spawn gives the child a clean signal mask (see `Spawn`).
    public static func run(_ path: String, _ args: [String], stdin: Data? = nil,
                           environment: [String: String] = [:], timeout: TimeInterval = 60) throws -> RunResult {
        var env: [String: String?] = ["NO_COLOR": "1"]
        for (k, v) in environment { env[k] = v }
        return try Spawn.run(path, args, stdin: stdin, environment: env, timeout: timeout)
    }
}

