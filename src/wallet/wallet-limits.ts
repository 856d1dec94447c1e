/** The wallet's bounds (unit last). docs/wallet.md explains the choices. */

/** Addresses one wallet derives; opening a wallet re-derives them all (~1 ms each with @scure/bip32). */
export const walletAddressesMax = 10_000;
/** Multisig scripts one wallet remembers. */
export const walletMultisigScriptsMax = 1_000;
/** Stealth accounts one wallet derives (each one hardened BIP32 derivation and two scalar multiplications on open). */
export const walletStealthAccountsMax = 1_000;
/** A message to sign or verify (UTF-8 bytes). */
export const walletMessageBytesMax = 65_536;
/** Wallet names: letters, digits, `_` and `-`, so a name is always one safe file name. */
export const walletNameCharsMax = 64;
/** A keystore file, read whole before parsing. */
export const keystoreFileBytesMax = 4_000_000;
/**
 * A sealed wallet attachment file (the node wallet's scanned outputs, ~0.7 kB of hex per output: ~90,000 outputs),
 * read whole before parsing.
 */
export const walletAttachmentBytesMax = 64_000_000;
/**
 * Selected-chain blocks between saves of the node wallet's scan while nothing owned is found (a found output is
 * saved at once): a kill -9 costs at most a rescan of this many blocks' mergesets, far above any pruning point.
 */
export const scanSaveIntervalBlocks = 64;
/** Decoys the node wallet saves with its scan (~130 bytes of hex each): a uniform sample of its pool beyond that. */
export const savedDecoysMax = 16_384;
/**
 * scrypt cost accepted from a keystore file: a hostile file must not make opening it cost gigabytes.
 * N ≤ 2^20 with r = 8 is 1 GiB, the most any sane setting asks for.
 */
export const keystoreScryptLog2NMax = 20;
/** scrypt's memory, 128·N·r·p bytes, at most 1 GiB. */
export const keystoreScryptMemoryBytesMax = 1024 ** 3;
export const keystoreScryptRMax = 16;
export const keystoreScryptPMax = 4;
/** Default scrypt cost for new keystores: N = 2^16, r = 8, p = 1 — 64 MiB and ~0.3 s in @noble/hashes on one core. */
export const keystoreScryptLog2NDefault = 16;
export const keystoreSaltBytes = 16;
