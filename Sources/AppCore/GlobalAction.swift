import TUIKit

/// Keys that work on every screen, under any overlay, before the screen's own table is asked.
enum GlobalAction: Sendable, Equatable {
    case suspend

    static let table = KeyBindingTable<GlobalAction>([
        KeyBinding([.ctrl("z")], .suspend,
                   description: "Suspend eSSH to your shell, as any terminal program (fg brings it back)"),
    ])
}
