/**
 * The P2P error family. Every error a peer can cause on the wire is a `P2pProtocolError`: a stable numeric code
 * (the -42xxx range, apart from the JSON-RPC codes in src/errors.ts) plus a `banScore` that the peer manager adds
 * up. Scores follow Bitcoin Core after PR #29575: 100 (disconnect and discourage for 24 h) or 0 (disconnect only).
 * Framing violations score 100 — no peer running this code ever produces them. Cryptographic failures (handshake,
 * AEAD) score 0, because corruption, middleboxes or a peer on another network cause them too.
 */
import { WeftError } from '../errors.ts';

export const P2pErrorCode = {
  FrameMalformed: -42001,
  FrameTooLarge: -42002,
  MessageTooLarge: -42003,
  HandshakeFailed: -42010,
  RemoteKeyMismatch: -42011,
  HandshakeTimeout: -42012,
  DecryptFailed: -42020,
  NonceExhausted: -42021,
  SessionClosed: -42030,
  MessageMalformed: -42040,
  MessageOverCap: -42041,
  ProtocolViolation: -42042,
  PeerIncompatible: -42043,
  PeerTimeout: -42044,
  UnsolicitedFlood: -42045,
  InvalidBlockRelayed: -42046,
  PeerBanned: -42047,
  SelfConnection: -42048,
  PeerLimit: -42049,
  DataUnavailable: -42050,
  SnapshotChunkInvalid: -42051,
  InvalidTransactionRelayed: -42052,
} as const;
export type P2pErrorCode = (typeof P2pErrorCode)[keyof typeof P2pErrorCode];

/** The two scores of the binary rule: disconnect only, or disconnect and discourage. */
export const P2pBanScore = { None: 0, Discourage: 100 } as const;

export class P2pProtocolError extends WeftError {
  /** Added to the peer's misbehaviour score by the peer manager; 100 means discourage. */
  readonly banScore: number;

  /** The P2P code (-42xxx): a peer-protocol code, not a JSON-RPC one (the error's kind is `peer_protocol`). */
  readonly p2pCode: P2pErrorCode;

  constructor(code: P2pErrorCode, banScore: number, message: string, options: { details?: unknown; cause?: unknown } = {}) {
    super('peer_protocol', message, options);
    this.p2pCode = code;
    this.banScore = banScore;
  }

  override get code(): P2pErrorCode {
    return this.p2pCode;
  }
}

/** A frame that no conforming peer sends: zero length, or shorter than the AEAD tag after the handshake. */
export class FrameMalformedError extends P2pProtocolError {
  constructor(message: string, details?: unknown) {
    super(P2pErrorCode.FrameMalformed, P2pBanScore.Discourage, message, { details });
  }
}

/** A frame over the bound for the current phase (handshake or transport). */
export class FrameTooLargeError extends P2pProtocolError {
  constructor(gotBytes: number, maxBytes: number) {
    super(P2pErrorCode.FrameTooLarge, P2pBanScore.Discourage, `frame of ${gotBytes} bytes exceeds the ${maxBytes}-byte limit`, {
      details: { gotBytes, maxBytes },
    });
  }
}

/** An application message whose declared length exceeds `p2pMessageBytesMax` (checked before buffering). */
export class MessageTooLargeError extends P2pProtocolError {
  constructor(gotBytes: number, maxBytes: number) {
    super(P2pErrorCode.MessageTooLarge, P2pBanScore.Discourage, `message of ${gotBytes} bytes exceeds the ${maxBytes}-byte limit`, {
      details: { gotBytes, maxBytes },
    });
  }
}

/** The Noise handshake failed: bad message length, invalid DH key, authentication failure, wrong prologue. */
export class HandshakeError extends P2pProtocolError {
  constructor(message: string, options: { details?: unknown; cause?: unknown } = {}) {
    super(P2pErrorCode.HandshakeFailed, P2pBanScore.None, message, options);
  }
}

/** The remote static key is not the one the dialer pinned (seed list `pubkey@host:port`, `addr` entry). */
export class RemoteKeyMismatchError extends P2pProtocolError {
  constructor(expectedHex: string, gotHex: string) {
    super(P2pErrorCode.RemoteKeyMismatch, P2pBanScore.None, `remote static key ${gotHex} is not the expected ${expectedHex}`, {
      details: { expected: expectedHex, got: gotHex },
    });
  }
}

export class HandshakeTimeoutError extends P2pProtocolError {
  constructor(timeoutMs: number) {
    super(P2pErrorCode.HandshakeTimeout, P2pBanScore.None, `handshake did not complete within ${timeoutMs} ms`, {
      details: { timeoutMs },
    });
  }
}

/** AEAD authentication failed on a transport message: the session must be closed at once. */
export class DecryptError extends P2pProtocolError {
  constructor(message: string) {
    super(P2pErrorCode.DecryptFailed, P2pBanScore.None, message);
  }
}

/** The 64-bit nonce reached 2^64−1, which Noise reserves (§5.1): the session must end. */
export class NonceExhaustedError extends P2pProtocolError {
  constructor() {
    super(P2pErrorCode.NonceExhausted, P2pBanScore.None, 'cipher nonce reached 2^64-1; the session must be closed');
  }
}

/** The session or its port is closed (by us, by the peer, or after an error). */
export class SessionClosedError extends P2pProtocolError {
  constructor(message: string) {
    super(P2pErrorCode.SessionClosed, P2pBanScore.None, message);
  }
}
