// The one version/verack handshake (src/p2p/version-handshake.ts) that a full node's peer and the light client both
// run: version first, then verack, nothing else before both; another network, chain id or genesis, a protocol
// version below the minimum, or our own nonce are refused; a refused message leaves the handshake as it was.
import { describe, expect, it } from 'vitest';
import { genesisHash, regtestParams } from '../../../src/consensus/params.ts';
import { P2pBanScore, P2pErrorCode, type P2pProtocolError } from '../../../src/p2p/errors.ts';
import { p2pProtocolVersionMin } from '../../../src/p2p/limits.ts';
import type { Message } from '../../../src/p2p/messages.ts';
import { createVersionHandshake, handshakeComplete, stepHandshake, type VersionExpectation, type VersionHandshake } from '../../../src/p2p/version-handshake.ts';
import { versionFor } from '../../helpers/p2p-harness.ts';

const ownNonce = 42n;
const expected: VersionExpectation = {
  network: regtestParams.name, chainId: regtestParams.chainId, genesis: genesisHash(regtestParams), isOwnNonce: (nonce) => nonce === ownNonce,
};

function refusal(handshake: VersionHandshake, message: Message, by: VersionExpectation = expected): P2pProtocolError {
  const before = { ...handshake };
  try {
    stepHandshake(handshake, by, message);
  } catch (error) {
    expect(handshake).toEqual(before);
    return error as P2pProtocolError;
  }
  throw new Error(`${message.type} was accepted`);
}

describe('the version/verack handshake', () => {
  it('completes on the peer’s version and then its verack, and passes what follows through', () => {
    const handshake = createVersionHandshake();
    const version = versionFor(regtestParams);
    expect(stepHandshake(handshake, expected, version)).toBe('version');
    expect(handshake.remote).toBe(version);
    expect(handshakeComplete(handshake)).toBe(false);
    expect(stepHandshake(handshake, expected, { type: 'verack' })).toBe('verack');
    expect(handshakeComplete(handshake)).toBe(true);
    expect(stepHandshake(handshake, expected, { type: 'ping', nonce: 1n })).toBe('after');
  });

  it('refuses a verack before the version, a second verack and a second version as protocol violations (score 100)', () => {
    const handshake = createVersionHandshake();
    const early = refusal(handshake, { type: 'verack' });
    expect(early.code).toBe(P2pErrorCode.ProtocolViolation);
    expect(early.banScore).toBe(P2pBanScore.Discourage);
    expect(early.message).toMatch(/verack before version/);
    stepHandshake(handshake, expected, versionFor(regtestParams));
    expect(refusal(handshake, versionFor(regtestParams)).message).toMatch(/a second version/);
    stepHandshake(handshake, expected, { type: 'verack' });
    expect(refusal(handshake, { type: 'verack' }).message).toMatch(/a second verack/);
  });

  it('refuses any other message before the handshake completed', () => {
    const handshake = createVersionHandshake();
    expect(refusal(handshake, { type: 'ping', nonce: 1n }).message).toMatch(/ping before the version handshake completed/);
    stepHandshake(handshake, expected, versionFor(regtestParams));
    const early = refusal(handshake, { type: 'getaddr' });
    expect(early.code).toBe(P2pErrorCode.ProtocolViolation);
    expect(early.message).toMatch(/getaddr before the version handshake completed/);
  });

  it.each([
    ['another network', { network: 'devnet' }],
    ['another chain id', { chainId: regtestParams.chainId + 1 }],
    ['another genesis', { genesis: new Uint8Array(32).fill(1) }],
    ['a protocol version below the minimum', { protocolVersion: p2pProtocolVersionMin - 1 }],
  ])('refuses a peer with %s as incompatible (score 0), before taking its version', (_what, overrides) => {
    const handshake = createVersionHandshake();
    const error = refusal(handshake, versionFor(regtestParams, overrides));
    expect(error.code).toBe(P2pErrorCode.PeerIncompatible);
    expect(error.banScore).toBe(P2pBanScore.None);
    expect(handshake.remote).toBeUndefined();
  });

  it('refuses our own nonce coming back as a self-connection, and only where the side keeps its nonces', () => {
    const echo = versionFor(regtestParams, { nonce: ownNonce });
    expect(refusal(createVersionHandshake(), echo).code).toBe(P2pErrorCode.SelfConnection);
    const { isOwnNonce: _none, ...light } = expected;
    expect(stepHandshake(createVersionHandshake(), light, echo)).toBe('version');
  });
});
