import ArgumentParser
import Inventory

/// `--ciphers`/`-c`, `--kex`, `--macs`, `--host-key-algorithms`: the algorithm lists in OpenSSH's syntax, for the
/// commands that connect (on top of a saved server's lists) and for `servers add/edit` (saved on the server).
struct AlgorithmOptions: ParsableArguments {
    // `.unconditional`: a list may start with `-` (remove from the defaults), which must not read as an option.
    @Option(name: [.customShort("c"), .customLong("ciphers")], parsing: .unconditional, help: ArgumentHelp(
        "Ciphers, as OpenSSH's Ciphers: a comma list, or +LIST to add to eSSH's defaults, -LIST to remove, "
            + "^LIST to put first (e.g. +aes128-cbc for an old device).", valueName: "list"))
    var ciphers: String?

    @Option(name: .customLong("kex"), parsing: .unconditional, help: ArgumentHelp(
        "Key exchange methods, as OpenSSH's KexAlgorithms (+, -, ^ as for --ciphers).", valueName: "list"))
    var kex: String?

    @Option(name: .customLong("macs"), parsing: .unconditional, help: ArgumentHelp(
        "MACs, as OpenSSH's MACs (+, -, ^ as for --ciphers).", valueName: "list"))
    var macs: String?

    @Option(name: .customLong("host-key-algorithms"), parsing: .unconditional, help: ArgumentHelp(
        "Host key algorithms, as OpenSSH's HostKeyAlgorithms (+, -, ^ as for --ciphers).", valueName: "list"))
    var hostKeyAlgorithms: String?

    /// The options that take a value (for `CommandLineArguments`).
    static let valueOptions: Set<String> = ["-c", "--ciphers", "--kex", "--macs", "--host-key-algorithms"]

    /// The lists as written (an empty one is no choice).
    var choices: AlgorithmChoices {
        AlgorithmChoices(kex: kex, hostKeys: hostKeyAlgorithms, ciphers: ciphers, macs: macs)
    }

    /// The lists as changes to a saved server: an empty one goes back to eSSH's defaults.
    var changes: AlgorithmChanges {
        AlgorithmChanges(kex: kex, hostKeys: hostKeyAlgorithms, ciphers: ciphers, macs: macs)
    }
}
