/**
 * What the tab does with each message from its node, strictly in order. The version/verack handshake is the p2p
 * node's own (src/p2p/version-handshake.ts: version first, then verack; network, chain id, genesis and the minimum
 * protocol version checked; nothing else before both); after it the tab answers `ping`, `getaddr` (empty) and
 * `getheaders` (empty), takes the header, proof and trusted-data pages it asked for, and follows `inv`s.
 */
import { genesisHash } from '../../consensus/params.ts';
import { decodeMessage, type Message } from '../../p2p/messages.ts';
import { InvType } from '../../p2p/messages/inventory.ts';
import { Services, type VersionMessage } from '../../p2p/messages/version.ts';
import { p2pProtocolVersion } from '../../p2p/limits.ts';
import { PeerIncompatibleError, SelfConnectionError } from '../../p2p/protocol-errors.ts';
import { handshakeComplete, stepHandshake } from '../../p2p/version-handshake.ts';
import { bytesToBigIntBE, toHex } from '../../util/bytes.ts';
import { LightSyncError } from '../errors.ts';
import { beginSync } from './join-at-point.ts';
import { onHeaders } from './on-headers.ts';
import { requestHeaders } from './request-headers.ts';
import { finishSync, ProofNotServed, sendMessage, type LightSyncState } from './state.ts';

/** The tab's version: the `browser` service bit and zero work, so the node never picks it as its sync peer. */
export function ownVersion(state: LightSyncState): VersionMessage {
  const { params } = state.chain;
  return {
    type: 'version', protocolVersion: p2pProtocolVersion, network: params.name, chainId: params.chainId, genesis: genesisHash(params),
    services: Services.browser, timestampMs: state.options.clock.nowMs(), nonce: bytesToBigIntBE(state.options.randomBytes(8)), userAgent: state.options.userAgent,
    // Zero work: the node must never pick a light client as its sync peer (it serves no bodies).
    listenPort: 0, bestBlueScore: 0, bestBlueWork: 0n, selectedTip: state.chain.selectedTip().hash, relay: false,
  };
}

/** Queues one received message behind the ones before it; whatever it throws ends the session. */
export function receiveMessage(state: LightSyncState, bytes: Uint8Array): void {
  state.queue = state.queue.then(async () => {
    if (state.finished) return;
    try {
      await handleMessage(state, decodeMessage(bytes));
    } catch (error) {
      finishSync(state, lightErrorOf(error));
    }
  });
}

/** The node's misstep as the tab reports it: another network or an old protocol is `peer-incompatible`. */
function lightErrorOf(error: unknown): LightSyncError {
  if (error instanceof LightSyncError) return error;
  if (error instanceof PeerIncompatibleError || error instanceof SelfConnectionError) return new LightSyncError('peer-incompatible', error.message, { cause: error });
  return new LightSyncError('protocol', `message refused: ${String((error as Error).message ?? error)}`, { cause: error });
}

async function handleMessage(state: LightSyncState, message: Message): Promise<void> {
  const step = stepHandshake(state.handshake, state.expected, message);
  if (step === 'version') {
    state.peerBlueScore = state.handshake.remote!.bestBlueScore;
    sendMessage(state, { type: 'verack' });
  }
  if (step !== 'after') {
    if (handshakeComplete(state.handshake) && !state.started) {
      state.started = true;
      state.cancelTimeout?.();
      void beginSync(state);
    }
    return;
  }
  return handleAfterHandshake(state, message);
}

function handleAfterHandshake(state: LightSyncState, message: Message): Promise<void> | void {
  switch (message.type) {
    case 'ping':
      return sendMessage(state, { type: 'pong', nonce: message.nonce });
    case 'headers':
      if (!state.inFlight) throw new LightSyncError('protocol', 'headers nobody asked for');
      return onHeaders(state, message);
    case 'pruningproof':
    case 'trusteddata':
      return takePage(state, message);
    case 'notfound':
      return onNotFound(state, message);
    case 'inv':
      if (message.items.some((i) => i.kind === InvType.block && !state.chain.has(toHex(i.hash)))) requestHeaders(state);
      return;
    case 'getaddr':
      return sendMessage(state, { type: 'addr', entries: [] });
    case 'getheaders':
      // We announce zero work, so a node has nothing to ask; answer empty rather than stall it.
      return sendMessage(state, { type: 'headers', headers: [], more: false });
    default:
      return; // addr, reject, unknown …: nothing a light client acts on
  }
}

/** A proof or trusted-data page goes to the one request of its kind in flight; one nobody asked for is refused. */
function takePage(state: LightSyncState, message: Extract<Message, { type: 'pruningproof' | 'trusteddata' }>): void {
  const proof = message.type === 'pruningproof';
  const pending = proof ? state.pendingProof : state.pendingTrusted;
  if (pending === undefined) throw new LightSyncError('protocol', `a ${proof ? 'pruning-proof' : 'trusted-data'} page nobody asked for`);
  if (proof) state.pendingProof = undefined;
  else state.pendingTrusted = undefined;
  pending.resolve(message);
}

/** `notfound` for what we asked: the node has no proof (or no trusted data at that point), which is no fault. */
function onNotFound(state: LightSyncState, message: Extract<Message, { type: 'notfound' }>): void {
  const pendingProof = state.pendingProof;
  if (pendingProof !== undefined && message.items.some((i) => i.kind === InvType.pruningProof)) {
    state.pendingProof = undefined;
    pendingProof.reject(new ProofNotServed('the node serves no pruning-point proof'));
  }
  const pendingTrusted = state.pendingTrusted;
  if (pendingTrusted !== undefined && message.items.some((i) => i.kind === InvType.trustedData)) {
    state.pendingTrusted = undefined;
    pendingTrusted.reject(new ProofNotServed('the node serves no trusted data at that pruning point'));
  }
}
