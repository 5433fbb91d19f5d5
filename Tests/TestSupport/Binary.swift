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

    /// Runs a program to its end (killing it after `timeout`), collecting stdout and stderr in full.
    public static func run(_ path: String, _ args: [String], stdin: Data? = nil,
                           environment: [String: String] = [:], timeout: TimeInterval = 60) throws -> RunResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = args
        var env = ProcessInfo.processInfo.environment
        env["NO_COLOR"] = "1"
        for (k, v) in environment { env[k] = v }
        process.environment = env
        let outPipe = Pipe(), errPipe = Pipe(), inPipe = Pipe()
        process.standardOutput = outPipe
        process.standardError = errPipe
        process.standardInput = inPipe
        let collected = Collected()
        let group = DispatchGroup()
        for (pipe, isOut) in [(outPipe, true), (errPipe, false)] {
            group.enter()
            DispatchQueue.global().async {
                let data = pipe.fileHandleForReading.readDataToEndOfFile()
                collected.set(data, isOut: isOut)
                group.leave()
            }
        }
        try process.run()
        if let stdin { inPipe.fileHandleForWriting.write(stdin) }
        try? inPipe.fileHandleForWriting.close()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning {
            process.terminate()
            usleep(200_000)
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
        process.waitUntilExit()
        // A daemon the program left behind may hold the pipes open: don't wait for it forever.
        _ = group.wait(timeout: .now() + 10)
        return RunResult(status: process.terminationStatus, stdout: collected.out, stderr: collected.err)
    }
}

private final class Collected: @unchecked Sendable {
    private let lock = NSLock()
    private var _out = Data(), _err = Data()
    func set(_ d: Data, isOut: Bool) { lock.lock(); if isOut { _out = d } else { _err = d }; lock.unlock() }
    var out: Data { lock.lock(); defer { lock.unlock() }; return _out }
    var err: Data { lock.lock(); defer { lock.unlock() }; return _err }
}
