/**
 * Errors of the p2p protocol layer (messages, peers, sync), beside the transport's in errors.ts. Each carries the
 * binary ban score of Bitcoin Core after PR #29575: 100 = disconnect and discourage, 0 = disconnect only. The rule
 * (docs/p2p.md "Misbehaviour"): what a peer running this code never sends scores 100; what honest peers can cause
 * (another network, an old version, a slow link, a clock skew) scores 0.
 */
import { P2pBanScore, P2pErrorCode, P2pProtocolError } from './errors.ts';

/** A message that does not decode, or has trailing bytes. */
export class MessageMalformedError extends P2pProtocolError {
  constructor(message: string, cause?: unknown) {
    super(P2pErrorCode.MessageMalformed, P2pBanScore.Discourage, message, { cause });
  }
}

/** A message over its type's cap (bytes or item count). */
export class MessageOverCapError extends P2pProtocolError {
  constructor(what: string, got: number, max: number) {
    super(P2pErrorCode.MessageOverCap, P2pBanScore.Discourage, `${what}: ${got} is over the cap of ${max}`, { details: { got, max } });
  }
}

/** A message out of protocol order: anything before verack, a second version, headers nobody asked for, ... */
export class ProtocolViolationError extends P2pProtocolError {
  constructor(message: string) {
    super(P2pErrorCode.ProtocolViolation, P2pBanScore.Discourage, message);
  }
}

/** Another network, chain id or genesis, or a protocol version we no longer speak. */
export class PeerIncompatibleError extends P2pProtocolError {
  constructor(message: string) {
    super(P2pErrorCode.PeerIncompatible, P2pBanScore.None, message);
  }
}

export class PeerTimeoutError extends P2pProtocolError {
  constructor(what: string, timeoutMs: number) {
    super(P2pErrorCode.PeerTimeout, P2pBanScore.None, `${what} not received within ${timeoutMs} ms`, { details: { timeoutMs } });
  }
}

/** Unsolicited blocks that do not connect, beyond the per-peer allowance. */
export class UnsolicitedFloodError extends P2pProtocolError {
  constructor(message: string) {
    super(P2pErrorCode.UnsolicitedFlood, P2pBanScore.Discourage, message);
  }
}

/** A block the peer sent broke a consensus rule; the score is the rule's (BlockRuleError.banScore). */
export class InvalidBlockRelayedError extends P2pProtocolError {
  readonly rule: string;

  constructor(rule: string, banScore: number, message: string) {
    super(P2pErrorCode.InvalidBlockRelayed, banScore, message, { details: { rule } });
    this.rule = rule;
  }
}

/**
 * A transaction the peer relayed that no state can ever accept: a signature that does not verify (a multisig script
 * that does not hash to its sender included), or another chain's id. Every node checks both before it relays, so an
 * honest peer never sends one (docs/security.md "Hostile peers"). Score 100.
 */
export class InvalidTransactionRelayedError extends P2pProtocolError {
  readonly reason: string;

  constructor(reason: string, message: string) {
    super(P2pErrorCode.InvalidTransactionRelayed, P2pBanScore.Discourage, message, { details: { reason } });
    this.reason = reason;
  }
}

/** The identity (IP or NodeID) is discouraged; the connection is refused. */
export class PeerBannedError extends P2pProtocolError {
  constructor(identity: string) {
    super(P2pErrorCode.PeerBanned, P2pBanScore.None, `${identity} is banned`);
  }
}

export class SelfConnectionError extends P2pProtocolError {
  constructor() {
    super(P2pErrorCode.SelfConnection, P2pBanScore.None, 'connected to ourselves');
  }
}

/** Connection slots are full, or the peer is already connected. */
export class PeerLimitError extends P2pProtocolError {
  constructor(message: string) {
    super(P2pErrorCode.PeerLimit, P2pBanScore.None, message);
  }
}

/**
 * The peer answered a fast-sync request with `notfound`: it does not hold that state root (pruned past it, or never
 * had it) or has no pruning proof to give. Not misbehaviour: the requester asks another peer.
 */
export class DataUnavailableError extends P2pProtocolError {
  constructor(message: string) {
    super(P2pErrorCode.DataUnavailable, P2pBanScore.None, message);
  }
}

/** A snapshot chunk that fails verification against the state root it was asked for (SnapshotError `reason`). */
export class SnapshotChunkInvalidError extends P2pProtocolError {
  readonly reason: string;

  constructor(reason: string, message: string, cause?: unknown) {
    super(P2pErrorCode.SnapshotChunkInvalid, P2pBanScore.Discourage, message, { details: { reason }, cause });
    this.reason = reason;
  }
}
