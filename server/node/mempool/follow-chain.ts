/**
 * The pool follows the chain (docs/mempool.md "After each block"): the ledger's acceptance event comes first (it
 * listens to the chain before this service does) and is kept; the block's own event then applies both — removals,
 * and the recheck of exactly the senders the block can affect. When a reorganisation takes chain blocks away, what
 * they had accepted and nobody re-accepted comes back (docs/design.md "Consensus").
 */
import type { BlockAcceptedEvent } from '../../../src/chain/chain.ts';
import { decodeTransaction } from '../../../src/kinds/transaction-codec.ts';
import type { BlockId } from '../../../src/consensus/ghostdag.ts';
import { blake3 } from '../../../src/crypto/blake3.ts';
import { kindOf } from '../../../src/kinds/registry.ts';
import { blockChanges, mergeChanges, type BlockChanges } from '../../../src/mempool/block-changes.ts';
import type { AcceptanceEvent } from '../../../src/state/tx-index.ts';
import { toHex } from '../../../src/util/bytes.ts';
import { notify, type NodeMempoolState } from './state.ts';

/**
 * Blocks whose changes are remembered: a block is summarised when it arrives and read again while it is a tip or in
 * a new block's mergeset (a handful of blocks at one a second). A summary of a full block is ~6,000 payers.
 */
const blockChangesRemembered = 32;

/** The ledger accepted (and maybe un-accepted) transactions: kept for the block's event; orphaned ones come back. */
export function acceptanceApplied(state: NodeMempoolState, event: AcceptanceEvent): void {
  const { pool, logger } = state;
  const accepted = event.added.flatMap((block) => block.accepted);
  const acceptedIds = new Set(accepted.map((ref) => toHex(ref.hash)));
  // A ring spend whose key image a peer's block spent (or an output key it created) can never be accepted now.
  const conflictKeys = accepted.flatMap((ref) => {
    const known = pool.get(ref.hash);
    if (known !== undefined) return known.conflicts;
    const tx = decodeTransaction(ref.bytes);
    return kindOf(tx).conflictKeys(tx);
  });
  // What acceptance refused never pays its fee: it leaves the pool instead of riding in every later template.
  const refused = event.added.flatMap((block) => block.notAccepted).filter((ref) => !acceptedIds.has(toHex(ref.hash)));
  state.acceptance = { accepted: accepted.map((ref) => ref.hash), refused: refused.map((ref) => ref.hash), conflictKeys };
  const orphaned = event.removed.flatMap((block) => block.accepted).filter((ref) => !acceptedIds.has(toHex(ref.hash)));
  if (orphaned.length > 0) {
    void pool.readmit(orphaned.map((ref) => ref.bytes)).then((results) => {
      const back = results.filter((r) => r.ok).length;
      logger.info({ readmitted: back, refused: results.length - back }, 'transactions of reorganised blocks returned to the pool');
      notify(state);
    });
  }
}

/** A block was accepted: the kept acceptance and the block's state change go to the pool, then expiry. */
export function blockAccepted(state: NodeMempoolState, event: BlockAcceptedEvent): void {
  const { pool, chain } = state;
  const { accepted, refused, conflictKeys } = state.acceptance ?? { accepted: [], refused: [], conflictKeys: [] };
  state.acceptance = undefined;
  // An empty pool has no sender to recheck: a syncing node does not summarise the blocks it replays.
  const change = pool.size === 0 ? { payers: [], records: [] } : changeOf(state, event);
  // What the new block carries is accepted by the virtual state now and by a chain block later: a pooled copy the
  // recheck refuses for that reason stays pending to the API (`carried`) instead of showing as dropped.
  const carried = pool.size === 0 ? [] : (chain.getBlock(event.block.id)?.transactions ?? []).map((tx) => toHex(blake3(tx)));
  pool.blockApplied({ accepted, refused, conflictKeys, change, carried });
  pool.expire();
  notify(state);
}

/**
 * The virtual state moved from the old tips' to the new ones': what can differ is what the new block, its mergeset
 * and the tips (whose transactions the virtual re-orders after it) carry. A reorganisation, or a chain that moved
 * by more than the new block, rechecks everything.
 */
function changeOf(state: NodeMempoolState, event: BlockAcceptedEvent): BlockChanges | 'all' {
  if (event.removedFromChain.length > 0 || event.addedToChain.length > 1) return 'all';
  const tips = state.chain.tips().map((t) => t.id);
  const ids = new Set<BlockId>([event.block.id, ...event.ghostdag.mergesetBlues, ...event.ghostdag.mergesetReds, ...tips]);
  const parts: BlockChanges[] = [];
  for (const id of ids) {
    const changes = changesOf(state, id);
    if (changes === undefined) return 'all';
    parts.push(changes);
  }
  return mergeChanges(parts);
}

function changesOf(state: NodeMempoolState, id: BlockId): BlockChanges | undefined {
  const { summaries } = state;
  const known = summaries.get(id);
  if (known !== undefined) return known;
  const block = state.chain.getBlock(id);
  if (block === undefined) return undefined;
  const changes = blockChanges(block.transactions, (hash) => state.pool.get(hash));
  summaries.set(id, changes);
  if (summaries.size > blockChangesRemembered) summaries.delete(summaries.keys().next().value!);
  return changes;
}
