import Foundation
import Testing
import TestSupport

/// F6 mails, F7 saves and `|` pipes the last output: the real `essh` in tmux, the real sshd, the real MTA (dma).
@Suite("essh TUI: mail, save, pipe", .serialized)
struct TUIOutputMailTests {
    @Test func mailSaveAndPipeTheLastOutput() throws {
        let servers = try TestServers.require()
        // HOME is the test's folder, so F7's default file lands there.
        let essh = try EsshInTmux(servers: [.box()], homeInFolder: true)
        defer { essh.stop() }
        let tmux = essh.tmux
        let dir = essh.dir
        try tmux.waitFor(text: "box")
        try tmux.press("Enter")
        try tmux.waitFor(text: "Type a command")
        try tmux.waitFor(text: "F6 Mail")
        // `(exit 4)`: a plain `exit` would end the session's shell (and bash says "exit" on stderr).
        try tmux.type("printf 'Grüße\\nline2\\nline3\\n'; (exit 4)")
        try tmux.press("Enter")
        try tmux.waitFor(text: "[exit 4")

        // F6: a bad address is refused in the form, which stays open.
        try tmux.press("F6")
        try tmux.waitFor(text: "Mail the output")
        try tmux.waitFor(text: "essh: printf")
        try tmux.type("not an address")
        try tmux.press("Enter")
        try tmux.waitFor(text: "is not a mail address")
        let marker = "tui-\(UUID().uuidString.prefix(8))"
        let address = try MailInspector.localAddress()
        try tmux.press("C-u")
        try tmux.type(address)
        try tmux.press("Tab", "C-u")
        try tmux.type("\(marker) Größe")
        try tmux.press("Enter")
        try tmux.waitFor(text: "Mail sent to \(address).")
        let mail = try MailInspector.parse(try MailInspector.delivered(to: "essh-test", marker: marker))
        #expect(mail.defects.isEmpty)
        #expect(mail.header("Subject") == "\(marker) Größe")
        let text = try #require(mail.parts.first?.text)
        #expect(text.hasPrefix("Server:      box\nUser:        \(servers.user)\n"
                               + "Command:     printf 'Grüße\\nline2\\nline3\\n'; (exit 4)\nExit status: 4 (failure)\n"))
        #expect(text.hasSuffix("\n\nGrüße\nline2\nline3\n"))

        // F7: saved under the default name, private; an existing name is refused.
        try tmux.press("F7")
        try tmux.waitFor(text: "~/essh-box-")
        try tmux.press("Enter")
        try tmux.waitFor(text: "Saved the output to ~/essh-box-")
        let saved = try #require(try FileManager.default.contentsOfDirectory(atPath: dir.path)
            .first { $0.hasPrefix("essh-box-") && $0.hasSuffix(".txt") })
        #expect(FileManager.default.contents(atPath: dir.file(saved)) == Data("Grüße\nline2\nline3\n".utf8))
        let mode = try FileManager.default.attributesOfItem(atPath: dir.file(saved))[.posixPermissions] as? Int
        #expect(mode == 0o600)
        try tmux.press("F7", "C-u")
        try tmux.type("~/" + saved)
        try tmux.press("Enter")
        try tmux.waitFor(text: "already exists")
        try tmux.press("Escape")

        // `|` on the empty command line: the output goes into a local command on the real terminal.
        try tmux.type("|")
        try tmux.waitFor(text: "Pipe the output into a local command")
        try tmux.type("wc -l")
        try tmux.press("Enter")
        let piped = try tmux.waitFor(text: "Press Enter to return to eSSH")
        #expect(piped.contains { $0.trimmingCharacters(in: .whitespaces) == "3" })
        try tmux.press("Enter")
        try tmux.waitFor(text: "Piped the output into `wc -l`: exit 0.")
        // With text on the command line, `|` is typed.
        try tmux.type("ps |")
        try tmux.waitFor(text: "> ps |")
        try tmux.press("C-u", "F10")
        try tmux.waitFor(text: "Time of connection:")
        try essh.quit()
    }
}
