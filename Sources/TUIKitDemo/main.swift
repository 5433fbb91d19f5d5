import Foundation
import TerminalCurses
import TUIKit

// TUIKitDemo: proves TUIKit and TerminalCurses together in a real terminal (driven in tmux by the
// TerminalCursesTests end-to-end test). Usage: TUIKitDemo [--lines N] [--interval-ms MS]

func option(_ name: String, default value: Int) -> Int {
    let args = CommandLine.arguments
    guard let i = args.firstIndex(of: name) else { return value }
    guard i + 1 < args.count, let n = Int(args[i + 1]), n >= 0 else {
        FileHandle.standardError.write(Data("TUIKitDemo: \(name) needs a whole number, e.g. \(name) \(value)\n".utf8))
        exit(2)
    }
    return n
}

if CommandLine.arguments.contains("--help") {
    print("usage: TUIKitDemo [--lines N (default 300)] [--interval-ms MS (default 40)]")
    exit(0)
}
let lines = option("--lines", default: 300)
let interval = option("--interval-ms", default: 40)

let terminal: CursesTerminal
do {
    terminal = try CursesTerminal()
} catch {
    FileHandle.standardError.write(Data("TUIKitDemo: \(error)\n".utf8))
    exit(1)
}

var model = DemoModel()
model.unicode = terminal.supportsUnicode
let feed = DemoFeed()
feed.start(lines: lines, interval: .milliseconds(interval), waker: terminal.waker)

var buffer = Buffer(size: terminal.size)
do {
    while !model.quit {
        buffer = Buffer(size: terminal.size)
        let cursor = model.render(into: &buffer)
        try terminal.draw(buffer, cursor: cursor)
        // Tick the spinner while streaming; once idle, sleep until a key, a resize or a wake-up.
        let event = try terminal.poll(timeout: model.streaming ? .milliseconds(100) : nil)
        if let event { model.handle(event) }
        let arrived = feed.take()
        for chunk in arrived.chunks { model.receive(chunk) }
        if arrived.done && model.streaming { model.endOfStream() }
        if model.streaming { model.tick += 1 }
    }
    terminal.shutdown()
} catch {
    terminal.shutdown()
    FileHandle.standardError.write(Data("TUIKitDemo: \(error)\n".utf8))
    exit(1)
}
