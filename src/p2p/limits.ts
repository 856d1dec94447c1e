/**
 * Bounds of the P2P layer, each named with its unit last (STYLE.md). The Noise spec's own constants (65535-byte
 * messages, 16-byte tags) live beside the code that implements them in src/p2p/noise/.
 */

/** Largest application message (one p2p protocol message: type byte + payload), checked before buffering. */
export const p2pMessageBytesMax = 4 * 1024 * 1024;

/**
 * Largest frame accepted before the handshake completes. Weft's XX messages are 32, 96 and 64 bytes with empty
 * payloads; the slack leaves room for a small hello payload without letting an unauthenticated peer make us
 * buffer a full 64 KiB frame.
 */
export const p2pHandshakeFrameBytesMax = 1024;

/** Handshake payloads above this are refused (they are ignored in protocol version 1 anyway). */
export const p2pHandshakePayloadBytesMax = 512;

/** Each CipherState is rekeyed (Noise §11.3) after this many transport messages, on both ends in lockstep. */
export const p2pRekeyIntervalMessages = 65_536;

/** The whole XX handshake (1.5 round trips) must finish within this. */
export const p2pHandshakeTimeoutMs = 10_000;

/** Network names bound into the prologue ('mainnet', 'testnet', 'devnet') are at most this long in UTF-8. */
export const p2pNetworkNameBytesMax = 32;

/** Messages decrypted before the application registered its handler are held, at most this many. */
export const p2pPendingMessagesMax = 1024;
