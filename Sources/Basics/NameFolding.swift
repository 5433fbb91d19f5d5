/// Names written short, as dshbak -c and ClusterShell's `nodeset -f` write host lists: web01 … web20 as
/// `web[01-20]`, web1, web2, web5 as `web[1-2,5]`. `NamePattern` reads the result back to the same names.
///
/// Names are folded along one run of digits: among names that differ only in one run (the last run that differs),
/// the values become a range list. Zero padding is kept (`web01`, `web02`: `web[01-02]`; `web9`, `web10`:
/// `web[9-10]`); names with brackets, commas, wildcards or spaces are left as they are.
public enum NameFolding {
    /// `names` folded, in the order each folded group first appears; each name once.
    public static func fold(_ names: [String]) -> [String] {
        struct Group {
            var first: Int
            var prefix: String
            var suffix: String
            var numbers: [String] = []
        }
        var order: [String] = []  // keys, in order of first appearance
        var groups: [String: Group] = [:]
        var seen = Set<String>()
        // Names of one shape (the same text between their runs of digits) are folded along the last run whose
        // digits differ among them; the other runs are part of the group's key.
        var shapes: [String: [[Substring]]] = [:]
        let unique = names.filter { seen.insert($0).inserted }
        let split = unique.map(runs)
        for runs in split.compactMap({ $0 }) { shapes[shape(runs), default: []].append(runs) }
        var axisOfShape: [String: Int] = [:]
        for (key, members) in shapes {
            let count = members[0].count
            axisOfShape[key] = stride(from: count - 2, through: 1, by: -2).first { index in
                Set(members.map { $0[index] }).count > 1
            } ?? (count > 1 ? count - 2 : -1)
        }
        for (position, name) in unique.enumerated() {
            guard let runs = split[position], let axis = axisOfShape[shape(runs)], axis > 0 else {
                order.append("=" + name)
                groups["=" + name] = Group(first: position, prefix: name, suffix: "")
                continue
            }
            let prefix = runs[..<axis].joined(), suffix = runs[(axis + 1)...].joined()
            let key = prefix + "\u{0}" + suffix
            if groups[key] == nil {
                order.append(key)
                groups[key] = Group(first: position, prefix: prefix, suffix: suffix)
            }
            groups[key]!.numbers.append(String(runs[axis]))
        }
        return order.flatMap { key -> [String] in
            let group = groups[key]!
            if group.numbers.count <= 1 { return [group.prefix + (group.numbers.first ?? "") + group.suffix] }
            return ranges(group.numbers).map { group.prefix + $0 + group.suffix }
        }
    }

    /// `value` in decimal, zero-padded to `width` digits (0: not padded).
    public static func digits(_ value: Int, width: Int) -> String {
        let plain = String(value)
        return plain.count >= width ? plain : String(repeating: "0", count: width - plain.count) + plain
    }

    /// Runs of digits as `[text, digits, text, digits, …, text]` (odd indexes are digits); nil for a name that is
    /// not folded.
    static func runs(_ name: String) -> [Substring]? {
        if name.isEmpty || name.contains(where: { "[],*?".contains($0) || $0.isWhitespace }) { return nil }
        var parts: [Substring] = []
        var start = name.startIndex
        var inDigits = false
        for index in name.indices {
            let isDigit = name[index].isASCII && name[index].isNumber
            if isDigit != inDigits {
                parts.append(name[start..<index])
                start = index
                inDigits = isDigit
            }
        }
        parts.append(name[start...])
        if inDigits { parts.append("") }
        // A run too long for an Int is text.
        if parts.enumerated().contains(where: { $0.offset % 2 == 1 && $0.element.count > 18 }) { return nil }
        return parts
    }

    /// The text between the runs, which names must share to fold.
    static func shape(_ runs: [Substring]) -> String {
        runs.enumerated().map { $0.offset % 2 == 0 ? String($0.element) : "#" }.joined(separator: "\u{0}")
    }

    /// Digit strings as the bracket lists for them: one `[…]` for each padding width among them (padded numbers
    /// keep their width; unpadded ones join the padded list of their width, else the unpadded one). A class of one
    /// number is written bare.
    static func ranges(_ numbers: [String]) -> [String] {
        let padded = Set(numbers.filter { $0.count > 1 && $0.hasPrefix("0") }.map(\.count))
        var classes: [Int: Set<Int>] = [:]
        var widths: [Int] = []
        for digits in numbers {
            let width = padded.contains(digits.count) ? digits.count : 0
            if classes[width] == nil { widths.append(width) }
            classes[width, default: []].insert(Int(digits)!)
        }
        return widths.map { width in
            let values = classes[width]!.sorted()
            if values.count == 1 { return digits(values[0], width: width) }
            var items: [String] = []
            var low = values[0], high = values[0]
            func close() {
                items.append(low == high ? digits(low, width: width)
                                         : digits(low, width: width) + "-" + digits(high, width: width))
            }
            for value in values.dropFirst() {
                if value == high + 1 {
                    high = value
                } else {
                    close()
                    low = value
                    high = value
                }
            }
            close()
            return "[" + items.joined(separator: ",") + "]"
        }
    }
}
