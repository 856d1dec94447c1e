/**
 * A header page from the sync peer (docs/p2p.md "Initial sync (headers first)", steps 1–2): each header checked in
 * isolation and for PoW as it arrives, required to connect, and queued for its body.
 */
import type { BlockHeader } from '../../codec/header.ts';
import { BlockRuleError } from '../../chain/errors.ts';
import { validateHeaderInIsolation, validatePow } from '../../chain/validate-header.ts';
import { blockHash } from '../../consensus/pow.ts';
import { toHex } from '../../util/bytes.ts';
import type { Peer } from '../peer.ts';
import { InvalidBlockRelayedError, ProtocolViolationError } from '../protocol-errors.ts';
import { drain } from './bodies.ts';
import { abortRound } from './round.ts';
import type { Entry, IbdState } from './state.ts';

export function onHeaders(state: IbdState, peer: Peer, headers: readonly BlockHeader[], more: boolean): void {
  if (peer !== state.syncPeer || !state.headersOutstanding) throw new ProtocolViolationError('headers nobody asked for');
  state.headersOutstanding = false;
  state.cancelHeadersTimeout?.();
  const now = state.clock.nowMs();
  for (const header of headers) {
    let checked: { id: string; hash: Uint8Array };
    try {
      checked = checkHeader(state, header, now);
    } catch (error) {
      if (!(error instanceof BlockRuleError) || error.rule !== 'context.pruning-point.violated') throw error;
      state.offChain.add(peer);
      abortRound(state, 'the peer is off our pruning point');
      state.onBlockRejected(peer, error);
      return;
    }
    const { id, hash } = checked;
    if (state.chain.has(id) || state.queued.has(id)) continue;
    const entry: Entry = { id, hash, blueScore: header.blueScore };
    state.queue.push(entry);
    state.queued.set(id, entry);
  }
  state.progress.headers(headers.length);
  const last = headers.at(-1);
  if (last) {
    state.progress.raiseTarget(last.blueScore);
    if (last.blueScore > peer.best.blueScore) peer.best = { blueWork: last.blueWork, blueScore: last.blueScore, tip: toHex(blockHash(last)) };
    state.lastHeaderHash = blockHash(last);
  }
  state.headersMore = more && headers.length > 0;
  drain(state);
}

function checkHeader(state: IbdState, header: BlockHeader, now: number): { id: string; hash: Uint8Array } {
  const { chain } = state;
  const hash = blockHash(header);
  try {
    validatePow(hash, validateHeaderInIsolation(header, chain.params, now));
  } catch (error) {
    if (error instanceof BlockRuleError) throw new InvalidBlockRelayedError(error.rule, error.banScore, error.message);
    throw error;
  }
  const id = toHex(hash);
  for (const parent of header.parents) {
    const pid = toHex(parent);
    if (chain.has(pid) || state.queued.has(pid)) continue;
    // A joined chain knows nothing below its trusted set: a peer whose headers do not connect is on a chain that does
    // not run through our pruning point (ban score 0; a joined node weighs its proof, join-guard.ts).
    if (chain.joinedAt !== undefined) {
      throw new BlockRuleError('context.pruning-point.violated', `header ${id}'s parent ${pid} is unknown to a chain joined at ${chain.joinedAt.id}`);
    }
    throw new ProtocolViolationError(`header ${id} does not connect: parent ${pid} unknown`);
  }
  return { id, hash };
}
