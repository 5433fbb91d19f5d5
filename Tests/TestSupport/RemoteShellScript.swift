import Foundation

/// Steps both shell tests (the `essh shell` command and the TUI's shell) take in tmux against the test sshd.
public enum RemoteShellScript {
    /// Waits for the remote shell's prompt (`essh-test@host:~$`) — not a `user@127.0.0.1` the interface shows.
    @discardableResult
    public static func waitForPrompt(_ tmux: TmuxSession, user: String) throws -> [String] {
        try tmux.waitFor("the remote prompt") { $0.contains { $0.hasPrefix("\(user)@") && $0.contains(":~$") } }
    }

    /// Types a command (the remote sees our TERM and the window's size), resizes the window, and checks the
    /// remote `stty size` follows. Throws with the screen when something does not show up.
    public static func typeAndResize(_ tmux: TmuxSession, from: (width: Int, height: Int),
                                     to: (width: Int, height: Int)) throws {
        try tmux.type("echo $((6*7)) $TERM; stty size")
        try tmux.press("Enter")
        try tmux.waitFor(text: "42 xterm-256color")
        try tmux.waitFor(text: "\(from.height) \(from.width)")
        try tmux.resize(width: to.width, height: to.height)
        try tmux.type("clear; stty size")
        try tmux.press("Enter")
        try tmux.waitFor(text: "\(to.height) \(to.width)")
    }
}
