import Foundation

/// A program running in a real terminal: a detached tmux session on a private server socket, driven with
/// `send-keys` and read with `capture-pane`. Each session has its own server, so tests can run in parallel.
public final class TmuxSession: @unchecked Sendable {
    /// Why a tmux test could not run or what it did not see.
    public struct Failure: Error, CustomStringConvertible {
        /// What happened, with the screen when it helps.
        public let description: String
        /// A failure saying `description`.
        public init(description: String) { self.description = description }
    }

    private let socket: String
    private let name = "main"
    private let config: String

    /// Fails with a clear message when tmux is not installed.
    public static func requireTmux() throws -> String {
        let dirs = ["/usr/bin", "/usr/local/bin", "/bin"]
        for dir in dirs where FileManager.default.isExecutableFile(atPath: dir + "/tmux") { return dir + "/tmux" }
        throw Failure(description: "tmux is not installed, and the end-to-end terminal tests need it. "
            + "Run `make test` (it installs TEST_DEPS) or `apt-get install tmux`.")
    }

    /// Starts `command` (a shell command line) in a `width` x `height` terminal, with tmux letting programs set
    /// the clipboard (OSC 52) and the title, so a test can tell whether a program let such sequences through.
    public init(command: String, width: Int = 120, height: Int = 35) throws {
        let tmux = try Self.requireTmux()
        socket = "essh-test-\(getpid())-\(UUID().uuidString.prefix(8))"
        config = NSTemporaryDirectory() + socket + ".conf"
        try "set -g set-clipboard on\nset -g allow-rename on\nset -g history-limit 0\n"
            .write(toFile: config, atomically: true, encoding: .utf8)
        let result = try Spawn.run(tmux, ["-u", "-L", socket, "-f", config, "new-session", "-d", "-x", "\(width)",
                                           "-y", "\(height)", "-s", name, command], timeout: 20)
        guard result.status == 0 else {
            throw Failure(description: "tmux new-session failed (\(result.status)): \(result.err)")
        }
    }

    deinit { kill() }

    /// Runs a tmux command on this session's server; returns its stdout.
    @discardableResult
    public func tmux(_ args: [String]) throws -> String {
        let result = try Spawn.run(try Self.requireTmux(), ["-u", "-L", socket] + args)
        guard result.status == 0 else {
            throw Failure(description: "tmux \(args.joined(separator: " ")) failed: \(result.err)")
        }
        return result.out
    }

    /// The screen as lines of text (`colors`: with SGR escape sequences, as `capture-pane -e`).
    public func screen(colors: Bool = false) throws -> [String] {
        let out = try tmux(["capture-pane", "-p", "-t", name] + (colors ? ["-e"] : []))
        return out.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// Presses named keys (`Down`, `Enter`, `F10`, `C-f`, `Escape`).
    public func press(_ keys: String...) throws { try tmux(["send-keys", "-t", name] + keys) }

    /// Types text literally.
    public func type(_ text: String) throws { try tmux(["send-keys", "-t", name, "-l", text]) }

    /// Resizes the terminal, as a user dragging the window would.
    public func resize(width: Int, height: Int) throws {
        try tmux(["resize-window", "-t", name, "-x", "\(width)", "-y", "\(height)"])
    }

    /// A tmux format for the session's pane, e.g. `#{pane_title}`, `#{alternate_on}`, `#{pane_pid}`.
    public func display(_ format: String) throws -> String {
        try tmux(["display-message", "-p", "-t", name, format]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Opens another window running `command` (a control experiment beside the program under test).
    public func newWindow(_ command: String) throws { try tmux(["new-window", "-d", "-t", name, command]) }

    /// Waits until the screen satisfies `condition`; throws with the last screen after `timeout` seconds.
    @discardableResult
    public func waitFor(_ what: String, timeout: TimeInterval = 15,
                        _ condition: ([String]) -> Bool) throws -> [String]
    {
        let deadline = Date().addingTimeInterval(timeout)
        var last: [String] = []
        while Date() < deadline {
            last = try screen()
            if condition(last) { return last }
            usleep(50_000)
        }
        throw Failure(description: "Timed out after \(Int(timeout)) s waiting for \(what). Screen:\n"
            + last.joined(separator: "\n"))
    }

    /// Waits until some line contains `text`.
    @discardableResult
    public func waitFor(text: String, timeout: TimeInterval = 15) throws -> [String] {
        try waitFor("“\(text)”", timeout: timeout) { $0.contains { $0.contains(text) } }
    }

    /// Stops the session's tmux server.
    public func kill() {
        if let tmux = try? Self.requireTmux() {
            _ = try? Spawn.run(tmux, ["-u", "-L", socket, "kill-server"], timeout: 10)
        }
        try? FileManager.default.removeItem(atPath: config)
    }
}
