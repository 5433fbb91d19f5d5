/// The vault's scrypt work factors (log2 of N, with r = 8 and p = 1), in one place.
public enum VaultParameters {
    /// The work factor new vaults and new passphrases get: about one second per unlock (1.1 to 1.5 s measured on
    /// the 2-core development machine in a release build, 2^18 took 0.45 to 0.8 s; docs/DECISIONS.md, 2026-11-24).
    /// 512 MiB of memory while unlocking.
    public static let writeWorkFactor = 19

    /// The highest work factor a vault may ask for when read. scrypt needs 128 · r · N bytes = 2^(logN + 10): 2^21
    /// is 2 GiB and 4 to 20 s here, four times the default, room for a vault made on a machine four times as
    /// fast (or `--work-factor 21` by choice); above it a changed or hostile file could make eSSH take 4 GiB or more
    /// and minutes before the passphrase can even be checked.
    public static let maxReadWorkFactor = 21
}
