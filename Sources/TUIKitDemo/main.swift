import Foundation
import TerminalCurses
import TUIKit

// TUIKitDemo: proves TUIKit and TerminalCurses together in a real terminal (driven in tmux by the
// TerminalCursesTests end-to-end test). Usage: TUIKitDemo [--lines N] [--interval-ms MS]
// `TUIKitDemo --sanitize` is a filter instead (stdin through TextSanitizer to stdout), for bench/bench-tuikit.sh.

func option(_ name: String, default value: Int) -> Int {
    let args = CommandLine.arguments
    guard let i = args.firstIndex(of: name) else { return value }
    guard i + 1 < args.count, let n = Int(args[i + 1]), n >= 0 else {
        FileHandle.standardError.write(Data("TUIKitDemo: \(name) needs a whole number, e.g. \(name) \(value)\n".utf8))
        exit(2)
    }
    return n
}

let known: Set<String> = ["--lines", "--interval-ms", "--help", "--sanitize"]
for (i, arg) in CommandLine.arguments.enumerated().dropFirst() where !known.contains(arg) {
    let previous = CommandLine.arguments[i - 1]
    if previous == "--lines" || previous == "--interval-ms" { continue }
    FileHandle.standardError.write(Data("TUIKitDemo: unknown argument \(arg); see TUIKitDemo --help\n".utf8))
    exit(2)
}
if CommandLine.arguments.contains("--help") {
    print("usage: TUIKitDemo [--lines N (default 300)] [--interval-ms MS (default 40)]")
    print("       TUIKitDemo --sanitize < untrusted > visible")
    exit(0)
}
if CommandLine.arguments.contains("--sanitize") {
    var sanitizer = TextSanitizer()
    var chunk = [UInt8](repeating: 0, count: 65_536)
    while true {
        let count = read(STDIN_FILENO, &chunk, chunk.count)
        if count <= 0 { break }
        FileHandle.standardOutput.write(Data(sanitizer.feed(chunk[..<count]).utf8))
    }
    FileHandle.standardOutput.write(Data(sanitizer.finish().utf8))
    exit(0)
}

/// The child that borrows the terminal: it prints on the normal screen and waits for Enter.
/// Returns its exit status (127 when it could not start, as a shell would).
func runChild() -> Int32 {
    let argv = ["/bin/sh", "-c", "printf 'CHILD-OUTPUT: press Enter to return\\n'; read line; exit 3"]
    let cArgs = argv.map { strdup($0) } + [nil]
    defer { cArgs.forEach { free($0) } }
    var pid: pid_t = 0
    let rc = posix_spawn(&pid, argv[0], nil, nil, cArgs, environ)
    guard rc == 0 else { return 127 }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    return (status >> 8) & 0xFF
}

let lines = option("--lines", default: 300)
let interval = option("--interval-ms", default: 40)

let terminal: CursesTerminal
do {
    terminal = try CursesTerminal(options: .init(mouseWheel: true))
} catch {
    FileHandle.standardError.write(Data("TUIKitDemo: \(error)\n".utf8))
    exit(1)
}

var model = DemoModel()
model.unicode = terminal.supportsUnicode
let feed = DemoFeed()
feed.start(lines: lines, interval: .milliseconds(interval), waker: terminal.waker)

// Output can arrive thousands of times a second; FramePacer redraws at most every 30 ms, and between frames
// the loop sleeps in poll until a key, a resize, a wake-up or the next frame is due.
let clock = ContinuousClock()
var pacer = FramePacer()
do {
    while !model.quit {
        if pacer.shouldDraw(at: clock.now) {
            var buffer = Buffer(size: terminal.size)
            let cursor = model.render(into: &buffer)
            try terminal.draw(buffer, cursor: cursor)
            pacer.didDraw(at: clock.now)
        }
        // While streaming the spinner ticks every 100 ms; once idle, sleep until something happens.
        let tick = Duration.milliseconds(100)
        let event = try terminal.poll(timeout: pacer.pollTimeout(at: clock.now, idle: model.streaming ? tick : nil))
        if let event {
            model.handle(event)
            pacer.invalidate()
        }
        let arrived = feed.take()
        for chunk in arrived.chunks { model.receive(chunk) }
        if arrived.done && model.streaming { model.endOfStream() }
        if !arrived.chunks.isEmpty || arrived.done { pacer.invalidate() }
        if model.streaming, let since = pacer.sinceLastFrame(at: clock.now), since >= tick {
            model.tick += 1
            pacer.invalidate()
        }
        if model.wantsChild {
            model.wantsChild = false
            let status = try terminal.suspend(runChild)
            model.scrollback.appendLine("child exited with status \(status)")
            pacer.invalidate()
        }
    }
    terminal.shutdown()
} catch {
    terminal.shutdown()
    FileHandle.standardError.write(Data("TUIKitDemo: \(error)\n".utf8))
    exit(1)
}
