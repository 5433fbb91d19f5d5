import Foundation
import Synchronization
import TUIKit

/// A background thread playing a remote command: numbered lines mixing wide characters, tabs, invalid UTF-8
/// and hostile escape sequences, cut into small chunks so characters and sequences split across chunks.
final class DemoFeed: Sendable {
    private let inbox = Mutex<(chunks: [[UInt8]], done: Bool)>(([], false))

    static func line(_ n: Int) -> [UInt8] {
        let samples: [[UInt8]] = [
            Array("plain ascii output\tafter a tab".utf8),
            Array("wide: 表示幅テスト 漢字 — done".utf8),
            Array("title attack \u{1B}]0;HACKED-TITLE\u{07} end".utf8),
            Array("clear attack \u{1B}[2J\u{1B}[H end".utf8),
            Array("clipboard attack \u{1B}]52;c;SGFja2Vk\u{07} end".utf8),
            Array("colour \u{1B}[31mred\u{1B}[0m and C1 CSI \u{9B}2J end".utf8),
            [0x62, 0x61, 0x64, 0x20, 0xFF, 0xC3, 0x28, 0x20] + Array("invalid utf-8 end".utf8),
            Array("progress 10%\r progress 100%".utf8),
        ]
        return Array(String(format: "%05d ", n).utf8) + samples[n % samples.count] + [0x0A]
    }

    /// Starts producing `lines` lines, one every `interval`, waking the UI loop after each.
    func start(lines: Int, interval: Duration, waker: any TerminalWaker) {
        let thread = Thread { [self] in
            for n in 1...max(1, lines) {
                let bytes = Self.line(n)
                for start in stride(from: 0, to: bytes.count, by: 7) {
                    let chunk = Array(bytes[start..<min(start + 7, bytes.count)])
                    inbox.withLock { $0.chunks.append(chunk) }
                }
                waker.wake()
                Thread.sleep(forTimeInterval: Double(interval.components.attoseconds) / 1e18
                    + Double(interval.components.seconds))
            }
            inbox.withLock { $0.done = true }
            waker.wake()
        }
        thread.start()
    }

    /// Takes what arrived since the last call.
    func take() -> (chunks: [[UInt8]], done: Bool) {
        inbox.withLock { state in
            defer { state.chunks.removeAll() }
            return state
        }
    }
}
