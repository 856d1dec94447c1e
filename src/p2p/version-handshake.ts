/**
 * The version/verack handshake (docs/p2p.md "Handshake"), written once for every kind of peer: a full node's
 * connection (peer.ts) and a light client's session (src/light/sync/). After Noise both sides send `version`; each
 * answers the other's with `verack`; the handshake is complete when a side has the other's version and then its
 * verack. Refused here, before anything else is looked at: a second `version`, a `verack` before `version` or a
 * second one, any other message before the handshake completed (ProtocolViolationError, score 100); another network,
 * chain id or genesis, a protocol version below `p2pProtocolVersionMin`, or our own nonce coming back
 * (PeerIncompatibleError / SelfConnectionError, score 0).
 */
import { equalBytes, toHash0x } from '../util/bytes.ts';
import { p2pProtocolVersionMin } from './limits.ts';
import type { Message } from './messages.ts';
import type { VersionMessage } from './messages/version.ts';
import { PeerIncompatibleError, ProtocolViolationError, SelfConnectionError } from './protocol-errors.ts';

/** What a peer's version must match: ours (network, chain id, genesis). */
export interface VersionExpectation {
  readonly network: string;
  readonly chainId: number;
  readonly genesis: Uint8Array;
  /** Whether `nonce` is one this side put in a version message (self-connection); a light client has no such check. */
  readonly isOwnNonce?: (nonce: bigint) => boolean;
}

export interface VersionHandshake {
  /** The peer's version, once received and accepted. */
  remote: VersionMessage | undefined;
  verackReceived: boolean;
}

/** What one message did to the handshake: the peer's version or verack taken, or a message for after it. */
export type HandshakeStep = 'version' | 'verack' | 'after';

export function createVersionHandshake(): VersionHandshake {
  return { remote: undefined, verackReceived: false };
}

export function handshakeComplete(handshake: VersionHandshake): boolean {
  return handshake.remote !== undefined && handshake.verackReceived;
}

/** Throws when the peer's version is not one we speak with (see the module comment); checks nothing else. */
function checkRemoteVersion(expected: VersionExpectation, v: VersionMessage): void {
  if (expected.isOwnNonce?.(v.nonce)) throw new SelfConnectionError();
  if (v.network !== expected.network || v.chainId !== expected.chainId || !equalBytes(v.genesis, expected.genesis)) {
    throw new PeerIncompatibleError(
      `peer is on ${v.network} (chain id ${v.chainId}, genesis ${toHash0x(v.genesis)}), we are on ${expected.network} (chain id ${expected.chainId})`,
    );
  }
  if (v.protocolVersion < p2pProtocolVersionMin) throw new PeerIncompatibleError(`protocol version ${v.protocolVersion} is older than ${p2pProtocolVersionMin}`);
}

/**
 * Feeds one decoded message to the handshake. `version` and `verack` are taken (the caller answers a version with
 * its verack); any other message is 'after' the handshake, and refused while the handshake is not complete.
 * Throws a P2pProtocolError and leaves the handshake unchanged when the message is refused.
 */
export function stepHandshake(handshake: VersionHandshake, expected: VersionExpectation, message: Message): HandshakeStep {
  switch (message.type) {
    case 'version':
      if (handshake.remote) throw new ProtocolViolationError('a second version message');
      checkRemoteVersion(expected, message);
      handshake.remote = message;
      return 'version';
    case 'verack':
      if (!handshake.remote || handshake.verackReceived) throw new ProtocolViolationError(handshake.verackReceived ? 'a second verack' : 'verack before version');
      handshake.verackReceived = true;
      return 'verack';
    default:
      if (!handshakeComplete(handshake)) throw new ProtocolViolationError(`${message.type} before the version handshake completed`);
      return 'after';
  }
}
