import Foundation
import Testing
import TestSupport

/// The real `essh` TUI saving to a real database: add through the form, edit, delete after confirming, settings.
@Suite("essh TUI: servers form and settings")
struct TUIServerFormTests {
    @Test func addEditAndDeleteAServerThroughTheScreens() throws {
        let essh = try EsshInTmux(knownHosts: .empty)
        defer { essh.stop() }
        let tmux = essh.tmux
        try tmux.waitFor(text: "No servers yet")

        try tmux.press("a")
        try tmux.waitFor(text: "Add server")
        try tmux.press("Enter")
        try tmux.waitFor(text: "Give the server a name")
        try tmux.type("web-ü1")
        try tmux.press("Tab")
        try tmux.type("192.0.2.10")
        try tmux.press("Tab", "C-u")
        try tmux.type("2222")
        try tmux.press("Tab")
        try tmux.type("deploy")
        try tmux.press("Tab", "Tab", "Tab", "Tab", "Tab", "Tab")  // Auth, Key file, Password, Jump, OS, Tags
        try tmux.type("prod eu")
        try tmux.press("Enter")
        try tmux.waitFor(text: "Saved web-ü1.")
        try tmux.waitFor(text: "deploy@192.0.2.10:2222")

        try tmux.press("e")
        try tmux.waitFor(text: "Edit server web-ü1")
        try tmux.press("Tab", "Tab", "Tab", "C-u", "Enter")
        try tmux.waitFor(text: "Saved web-ü1.")
        let list = try essh.run(["servers", "list"])
        #expect(list.out.contains("web-ü1"))
        #expect(list.out.contains("192.0.2.10"))
        #expect(!list.out.contains("deploy"), "the emptied user field removed the user")
        #expect(list.out.contains("prod"))

        try tmux.press("d")
        try tmux.waitFor(text: "Delete web-ü1")
        try tmux.press("Enter")          // Keep is the default
        try tmux.waitFor(text: "web-ü1")
        try tmux.press("d", "Left", "Enter")
        try tmux.waitFor(text: "Deleted web-ü1.")
        try tmux.waitFor(text: "No servers yet")

        try tmux.press("s")
        try tmux.waitFor(text: "Settings")
        try tmux.press("Tab", "Tab", "Tab", "C-u")
        try tmux.type("5")
        try tmux.press("Enter")
        try tmux.waitFor(text: "from 100 to 1000000")
        try tmux.type("000")
        try tmux.press("Enter")
        try tmux.waitFor(text: "Settings saved.")
        try essh.quit()
        let empty = try essh.run(["servers", "list"])
        #expect(!empty.out.contains("web-ü1"))
    }
}
