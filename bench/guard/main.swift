// TerminalGuard's throughput on its own: 32 KiB chunks (about what one SSH read brings) of typical and hostile
// output, filtered into a reused buffer. Built by bench/bench-guard.sh with `swiftc -O` from the TextWidth sources.
import Foundation

func measure(_ name: String, _ chunk: [UInt8], total: Int) -> String {
    var guardian = TerminalGuard()
    var out: [UInt8] = []
    out.reserveCapacity(chunk.count * 3)
    let rounds = max(1, total / chunk.count)
    var written = 0
    let start = DispatchTime.now().uptimeNanoseconds
    chunk.withUnsafeBytes { raw in
        for _ in 0..<rounds {
            out.removeAll(keepingCapacity: true)
            guardian.filter(raw, into: &out)
            written &+= out.count
        }
    }
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    let megabytes = Double(rounds * chunk.count) / 1e6
    return String(format: "| %@ | %.0f MB | %.3f s | **%.0f MB/s** | %.2f× |", name, megabytes, seconds,
                  megabytes / seconds, Double(written) / Double(rounds * chunk.count))
}

func chunk(_ text: String) -> [UInt8] {
    let unit = Array(text.utf8)
    var bytes: [UInt8] = []
    while bytes.count < 32 * 1024 { bytes += unit }
    return Array(bytes.prefix(32 * 1024))
}

let gigabyte = 1 << 30
print("| output | filtered | time | throughput | bytes out / in |")
print("| --- | --- | --- | --- | --- |")
let samples: [(String, String, Int)] = [
    ("ASCII text, 72-byte lines", "The quick brown fox jumps over the lazy dog; 0123456789 and more text.\n", gigabyte),
    ("UTF-8 text (German, Russian, Japanese)", "Größe Übermaß — Привет, как дела? 日本語のテキストです。 °C £\n", gigabyte),
    ("coloured `ls` (SGR around each name)",
     "\u{1B}[01;34mdirectory\u{1B}[0m  \u{1B}[01;32mscript.sh\u{1B}[0m  file.txt\n", gigabyte),
    ("hostile (OSC, queries, modes)", "\u{1B}]0;pwned\u{7}\u{1B}[6n\u{1B}[?1049hx\n", gigabyte / 8),
    ("NUL bytes (a binary file)", "\u{0}", gigabyte / 8),
]
for (name, text, total) in samples { print(measure(name, chunk(text), total: total)) }
