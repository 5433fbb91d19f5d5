// Kept apart from SSHConfigHost.swift so the reader's result compiles without the store's records (`make fuzz`
// builds the ssh_config reader's files on their own).
extension SSHConfigHost {
    /// The server to save for this host.
    public var draft: ServerDraft {
        ServerDraft(name: alias, host: hostName ?? alias, port: port ?? 22, user: user,
                    auth: identityFile == nil ? .agent : .key, keyPath: identityFile, algorithms: algorithms)
    }
}
