/// The colour of a check status: green online, yellow not-ssh, red down (ANSI SGR codes).
enum StatusColour {
    static func code(for status: String) -> String {
        switch status {
        case "online": "32"
        case "not-ssh": "33"
        default: "31"
        }
    }
}
