// Kept apart from SSHConfigHost.swift so the reader's result compiles without the store's records (`make fuzz`
// builds the ssh_config reader's files on their own).
extension SSHConfigHost {
    /// The server to save for this host: its jump chain, and an unsupported ProxyCommand in the note.
    public var draft: ServerDraft {
        ServerDraft(name: alias, host: hostName ?? alias, port: port ?? 22, user: user,
                    auth: identityFile == nil ? .agent : .key, keyPath: identityFile,
                    note: unsupportedProxy.map { "\($0): not supported by eSSH, which connects directly" } ?? "",
                    algorithms: algorithms, jump: jump ?? "")
    }
}
