/// The walk shared by the block-shaped interface layouts (net-tools ifconfig old and new, BSD/macOS ifconfig,
/// Windows ipconfig): a line at the left margin may open an interface, and the indented lines below it describe it.
/// Each parser says what a header opens and what a detail line adds; the walk keeps the warnings uniform.
struct InterfaceBlocks {
    /// What a line at the left margin turned out to be.
    enum Header {
        case opens(Interface)
        /// A known line that opens nothing (ipconfig's `Windows IP Configuration` title).
        case ignored
        case unknown
    }

    let text: ByteText
    /// What a header is called in warnings: `ifconfig interface header`.
    let headerName: String
    /// Whether indented lines before the first header are reported (ipconfig's preamble is not).
    let reportOrphans: Bool

    /// Walks every line; `detail` returns false for a line it could not read (reported, then skipped).
    func read(header: (Range<Int>) -> Header,
              detail: (Range<Int>, inout Interface) -> Bool) -> (items: [Interface], warnings: [String]) {
        var items: [Interface] = []
        var warnings: [String] = []
        var current: Interface?
        var lineNumber = 0
        text.forEachLine { line in
            lineNumber += 1
            if line.isEmpty || text.isBlank(line) { return true }
            if !isSpace(text[line.lowerBound]) {
                switch header(line) {
                case .opens(let interface):
                    if let done = current { items.append(done) }
                    current = interface
                case .ignored:
                    break
                case .unknown:
                    warnings.append("line \(lineNumber): not an \(headerName), skipped")
                }
                return true
            }
            guard current != nil else {
                if reportOrphans { warnings.append("line \(lineNumber): indented line before any interface, skipped") }
                return true
            }
            if !detail(line, &current!) {
                warnings.append("line \(lineNumber): unreadable address line, skipped")
            }
            return true
        }
        if let done = current { items.append(done) }
        return (items, warnings)
    }
}
