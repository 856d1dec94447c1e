/**
 * Compact blocks in relay (docs/p2p.md "Compact blocks"; the rebuilding itself is src/p2p/compact-relay.ts): a
 * pushed block rebuilt from the transactions relay holds, the rest asked of its sender by index, and the whole block
 * fetched when they do not come in time; `getblocktxn` answered for recent blocks.
 */
import { BlockRuleError } from '../../chain/errors.ts';
import { blockHash } from '../../consensus/pow.ts';
import { fromHex, toHex } from '../../util/bytes.ts';
import {
  compactBackupDelayMs, compactBlockTxnDepthMax, compactCompletionTimeoutMs, completeCompact, meetsOwnTarget, rebuildCompact,
  type RebuildResult,
} from '../compact-relay.ts';
import type { CompactBlockMessage } from '../messages/compact-block.ts';
import type { PrefilledBlockMessage } from '../messages/prefilled-block.ts';
import { InvType } from '../messages/inventory.ts';
import type { Peer } from '../peer.ts';
import { MessageMalformedError } from '../protocol-errors.ts';
import { defer, requestBlocks } from './block-requests.ts';
import { acceptRelayed, knownOrComing, orphanOverAllowance } from './blocks.ts';
import { noteFirstDelivery } from './push-selection.ts';
import type { RelayState } from './state.ts';

/**
 * A compact block, pushed or asked for (`getdata` of kind `compactBlock`): rebuilt from the transactions it carries
 * and held ones, the rest asked of its sender.
 */
export function onCompactBlock(state: RelayState, peer: Peer, message: CompactBlockMessage | PrefilledBlockMessage): void {
  const { chain } = state;
  const hash = blockHash(message.header);
  const id = toHex(hash);
  peer.known.add(id);
  const solicited = state.requested.get(id)?.peer === peer;
  if (solicited) state.requested.delete(id);
  if (chain.has(id) || chain.isInvalid(id)) return;
  const pending = state.compact.pending.get(id);
  if (pending !== undefined) {
    // Already being completed from another peer, which may never answer (a pushed header with ids nobody holds
    // costs nothing to make): this announcer is asked for the whole block if they are still missing a little
    // later, so a stalled claim delays the block by compactBackupDelayMs instead of until its completion timer.
    if (pending.peer !== peer) askWholeUnlessCompleted(state, peer, id);
    return;
  }
  // One hash before any lookup: a pushed header that does not meet its own target is refused as a bad block.
  if (!meetsOwnTarget(message.header, hash)) {
    return state.onBlockRejected(peer, new BlockRuleError('pow.insufficient', 'compact block: hash above the target its bits encode'));
  }
  const parents = message.header.parents.map(toHex);
  // During a sync round a block on parents we hold is news on top of what we have, taken now; one on parents the
  // round may still bring waits for it (deferred, asked for after the round).
  if (state.ibd.running() && !parents.every((p) => chain.has(p))) return defer(state, id, peer);
  if (!solicited && !parents.every((p) => knownOrComing(state, p)) && !peer.orphanAllowance.take()) {
    return orphanOverAllowance(state, peer, message.header, id);
  }
  if (!solicited) noteFirstDelivery(state, peer);
  onRebuilt(state, peer, id, rebuildCompact(state.compact, message, hash, peer, state.clock.nowMs(), (txId) => state.txCache.get(txId)));
}

export function onGetBlockTxn(state: RelayState, peer: Peer, hash: Uint8Array, indexes: readonly number[]): void {
  const { chain } = state;
  // The index lookup (memory) and the depth bound before the block is read from the store.
  const id = toHex(hash);
  const indexed = chain.get(id);
  const deep = indexed !== undefined && chain.selectedTip().header.blueScore - indexed.header.blueScore > compactBlockTxnDepthMax;
  const block = indexed === undefined || deep ? undefined : chain.getBlock(id);
  if (!block) return peer.send({ type: 'notfound', items: [{ kind: InvType.block, hash }] });
  const last = indexes.at(-1);
  if (last !== undefined && last >= block.transactions.length) {
    throw new MessageMalformedError(`getblocktxn: index ${last} past the block's ${block.transactions.length} transactions`);
  }
  peer.send({ type: 'blocktxn', hash, transactions: indexes.map((i) => block.transactions[i]!) });
}

export function onBlockTxn(state: RelayState, peer: Peer, hash: Uint8Array, transactions: readonly Uint8Array[]): void {
  const id = toHex(hash);
  const result = completeCompact(state.compact, id, peer, transactions);
  if (result.kind === 'unrequested') return void peer.anomaly('blocktxn for a block we did not ask about');
  if (result.kind === 'wrong-count') throw new MessageMalformedError(`blocktxn: ${transactions.length} transactions, asked for ${result.expected}`);
  onRebuilt(state, peer, id, result);
}

/**
 * A compact block whose transactions do not come in time (or whose sender closes or answers notfound) is fetched
 * whole: from its sender while it is connected, else from another peer that announced it.
 */
export function fetchWhole(state: RelayState, id: string, sender: Peer): void {
  if (state.chain.has(id) || state.chain.isInvalid(id)) return;
  const from = sender.isReady() ? sender : state.readyPeers().find((p) => p !== sender && p.known.has(id));
  if (from) requestBlocks(state, from, [id]);
}

function onRebuilt(state: RelayState, peer: Peer, id: string, result: RebuildResult): void {
  if (result.kind === 'block') acceptRelayed(state, peer, result.block, id);
  else if (result.kind === 'missing') {
    peer.send({ type: 'getblocktxn', hash: fromHex(id), indexes: result.indexes });
    awaitCompletion(state, peer, id);
  } else requestBlocks(state, peer, [id]); // a short-id collision: the full block decides
}

function awaitCompletion(state: RelayState, peer: Peer, id: string): void {
  const { compact, completionTimers } = state;
  const entry = compact.pending.get(id);
  completionTimers.get(id)?.();
  completionTimers.set(id, state.timer.setTimeout(() => {
    completionTimers.delete(id);
    if (entry === undefined || compact.pending.get(id) !== entry) return; // completed, refused or displaced
    compact.pending.delete(id);
    fetchWhole(state, id, peer);
  }, compactCompletionTimeoutMs));
}

/** One backup announcer a pending block: asked for it whole after compactBackupDelayMs if its completion is still pending. */
function askWholeUnlessCompleted(state: RelayState, peer: Peer, id: string): void {
  const { compact, backupTimers } = state;
  if (backupTimers.has(id)) return;
  const waiting = compact.pending.get(id);
  backupTimers.set(id, state.timer.setTimeout(() => {
    backupTimers.delete(id);
    if (waiting === undefined || compact.pending.get(id) !== waiting || !peer.isReady()) return; // completed, refused or gone
    requestBlocks(state, peer, [id]);
  }, compactBackupDelayMs));
}
