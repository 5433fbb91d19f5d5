import Basics
import Foundation
import TextWidth
import Transfer

/// `essh cp`'s progress line: the file being written and the whole copy — bytes, rate, time left — on a
/// `ProgressLine` (stderr, a terminal only, at most ten times a second), cut to the terminal's width so the
/// carriage return redraws it in place. Not thread-safe: `CopyReport` calls it under its lock.
final class CopyProgress {
    private let line: ProgressLine
    private let width: Int

    init(enabled: Bool) {
        line = ProgressLine(enabled: enabled)
        var size = winsize()
        width = enabled && ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0 && size.ws_col > 0
            ? Int(size.ws_col) : 80
    }

    func show(_ progress: TransferProgress, server: String?) {
        line.show(DisplayWidth.truncate(Self.text(progress, server: server), to: width - 1))
    }

    func clear() { line.clear() }

    /// "web1:/srv/a.bin  45% 12.3 MB of 27.0 MB · 3 of 10 files, 40% of 90.0 MB · 12.3 MB/s · 5 s left".
    static func text(_ p: TransferProgress, server: String?) -> String {
        var name = TransferEndpoint.shown(p.file.split(separator: UInt8(ascii: "/")).last ?? [])
        if let server { name = server + ": " + name }
        var text = name + "  " + percent(p.fileDone, p.fileSize) + " " + ByteCountText.decimal(p.fileDone) + " of "
            + ByteCountText.decimal(p.fileSize)
        if p.filesTotal > 1 {
            text += " · \(p.filesDone) of \(CountText.text(p.filesTotal, "file")), " + percent(p.totalDone, p.totalBytes)
                + " of " + ByteCountText.decimal(p.totalBytes)
        }
        text += " · " + ByteCountText.rate(p.bytesPerSecond)
        if let left = p.secondsLeft, left.isFinite { text += " · " + DurationText.text(left, .wholeUnits) + " left" }
        return text
    }

    private static func percent(_ done: Int64, _ total: Int64) -> String {
        total > 0 ? "\(min(100, done * 100 / total))%" : "100%"
    }
}
