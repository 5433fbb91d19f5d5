/// The vault's scrypt work factors (log2 of N, with r = 8 and p = 1), in one place.
public enum VaultParameters {
    /// The work factor new vaults and new passphrases get: about one second per unlock on the machine it was
    /// measured on (docs/DECISIONS.md, 2026-11-24, the work factor).
    public static let writeWorkFactor = 20

    /// The highest work factor a vault may ask for when read. scrypt needs 128 · r · N bytes = 2^(logN + 10): 2^22
    /// is 4 GiB and several seconds, enough headroom for a vault written on a machine twice or four times as fast;
    /// above it a changed or hostile file could make eSSH spend minutes and all the memory before the passphrase
    /// can even be checked.
    public static let maxReadWorkFactor = 22
}
