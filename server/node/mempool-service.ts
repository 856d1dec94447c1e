/**
 * The node's transaction pool, wired to the ledger: admission checks every kind's state rules against the virtual
 * state and verifies signatures on worker threads; after each block (docs/mempool.md "After each block") what chain
 * blocks accepted leaves the pool, so does what acceptance refused, and exactly the senders the block can affect are
 * rechecked against the new virtual state; when a reorganisation takes chain blocks away, what they had accepted and
 * nobody re-accepted comes back (docs/design.md "Consensus"). Templates read the pool's candidate set. Every pooled transaction is journaled in the node's store (src/mempool/journal.ts):
 * `submit` acknowledges a transaction only once its row is durable, and `restore` readmits the journal at start.
 */
import type { BlockAcceptedEvent, Chain } from '../../src/chain/chain.ts';
import type { BlockId } from '../../src/consensus/ghostdag.ts';
import { decodeAgentRecord } from '../../src/kinds/agent/agent-record.ts';
import { rulesV2Active } from '../../src/consensus/activation.ts';
import { decodeTransaction } from '../../src/codec/transaction.ts';
import { blockChanges, mergeChanges, type BlockChanges } from '../../src/mempool/block-changes.ts';
import { blake3 } from '../../src/crypto/blake3.ts';
import { createMempoolJournal } from '../../src/mempool/journal.ts';
import { mempoolOwnTxRebroadcastMs, mempoolTxCountMax } from '../../src/mempool/mempool-limits.ts';
import { createRebroadcaster } from '../../src/mempool/rebroadcast.ts';
import type { PoolEntry } from '../../src/mempool/entry.ts';
import type { KvStore } from '../../src/storage/kv.ts';
import { kindOf } from '../../src/kinds/registry.ts';
import type { NetworkParams } from '../../src/consensus/params.ts';
import { createMempool, type Mempool } from '../../src/mempool/mempool.ts';
import type { TransactionSelection } from '../../src/mining/template.ts';
import type { Ledger } from '../../src/state/ledger.ts';
import type { MiningRewardReader } from '../../src/mining/mining-events.ts';
import { toHex } from '../../src/util/bytes.ts';
import type { Clock } from '../../src/util/clock.ts';
import { createVerifyPool } from '../crypto/verify-pool.ts';
import type { Logger } from '../logger.ts';

export interface NodeMempool {
  readonly pool: Mempool;
  /** Admits a transaction and resolves once it is journaled (durable): only then may its hash be acknowledged. */
  submit(bytes: Uint8Array): Promise<PoolEntry>;
  /** Readmits the journal's transactions (start-up, before any submit); refused ones are forgotten. */
  restore(): Promise<{ readonly restored: number; readonly refused: number }>;
  /** The node's own pooled transactions (submitted here, or restored), announced again every mempoolOwnTxRebroadcastMs. */
  onRebroadcast(listener: (entry: PoolEntry) => void): () => void;
  /** For buildBlockTemplate's `selectTransactions`. */
  selectTransactions(selection: TransactionSelection): readonly Uint8Array[];
  /** Called whenever what a template would hold may have changed (pool or chain moved). */
  onInputsChanged(listener: () => void): void;
  close(): Promise<void>;
}

/**
 * Blocks whose changes are remembered: a block is summarised when it arrives and read again while it is a tip or in
 * a new block's mergeset (a handful of blocks at one a second). A summary of a full block is ~6,000 payers.
 */
const blockChangesRemembered = 32;

export function startNodeMempool(options: { params: NetworkParams; chain: Chain; ledger: Ledger; store: KvStore; clock: Clock; logger: Logger }): NodeMempool {
  const { chain, ledger, logger } = options;
  const verifier = createVerifyPool();
  const pool = createMempool({
    params: options.params,
    // The virtual state, read only: accounts, records and the DAA score the next acceptance runs at.
    accounts: ledger,
    records: (namespace, id) => ledger.getRecord(namespace, id),
    daaScore: () => ledger.virtual().daaScore,
    // The escrow rules of rules v2 (arbiters that can sign, disputes that end) at the next acceptance's DAA score.
    rulesV2: () => rulesV2Active(options.params, ledger.virtual().daaScore),
    verifier,
    clock: options.clock,
    // Pool-paid fees of agent transactions (docs/settlement.md "Fees and the energy pool"), at the virtual state.
    agentPool: (payer) => {
      const value = ledger.getRecord('agent', payer);
      return value === undefined ? undefined : decodeAgentRecord(value).energyPool;
    },
  });
  const journal = createMempoolJournal(options.store);
  const rebroadcast = createRebroadcaster({ pool, clock: options.clock, intervalMs: mempoolOwnTxRebroadcastMs, trackedMax: mempoolTxCountMax });
  const rebroadcastTimer = setInterval(() => rebroadcast.tick(), mempoolOwnTxRebroadcastMs / 4);
  rebroadcastTimer.unref();
  const changed = new Set<() => void>();
  const notify = () => changed.forEach((listener) => listener());
  const journalFailed = (error: unknown) => logger.error({ err: error }, 'mempool journal write failed');

  const unsubscribePool = pool.subscribe(notify);
  // The journal follows the pool: a row for every transaction in it, whatever brought it (RPC, a peer, a reorg).
  const unsubscribeJournal = pool.subscribe((event) => {
    if (event.type === 'added') journal.append(event.entry.hash, event.entry.bytes).catch(journalFailed);
    else journal.remove(event.entry.hash).catch(journalFailed);
  });
  // The ledger's acceptance event comes first (it listens to the chain before this service does); the block's own
  // event then applies both: removals, and the recheck of exactly the senders the block can affect.
  let acceptance: { accepted: Uint8Array[]; refused: Uint8Array[]; conflictKeys: string[] } | undefined;
  const unsubscribeLedger = ledger.onAcceptance((event) => {
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
    acceptance = { accepted: accepted.map((ref) => ref.hash), refused: refused.map((ref) => ref.hash), conflictKeys };
    const orphaned = event.removed.flatMap((block) => block.accepted).filter((ref) => !acceptedIds.has(toHex(ref.hash)));
    if (orphaned.length > 0) {
      void pool.readmit(orphaned.map((ref) => ref.bytes)).then((results) => {
        const back = results.filter((r) => r.ok).length;
        logger.info({ readmitted: back, refused: results.length - back }, 'transactions of reorganised blocks returned to the pool');
        notify();
      });
    }
  });

  const summaries = new Map<BlockId, BlockChanges>();
  const changesOf = (id: BlockId): BlockChanges | undefined => {
    const known = summaries.get(id);
    if (known !== undefined) return known;
    const block = chain.getBlock(id);
    if (block === undefined) return undefined;
    const changes = blockChanges(block.transactions, (hash) => pool.get(hash));
    summaries.set(id, changes);
    if (summaries.size > blockChangesRemembered) summaries.delete(summaries.keys().next().value!);
    return changes;
  };
  /**
   * The virtual state moved from the old tips' to the new ones': what can differ is what the new block, its mergeset
   * and the tips (whose transactions the virtual re-orders after it) carry. A reorganisation, or a chain that moved
   * by more than the new block, rechecks everything.
   */
  const changeOf = (event: BlockAcceptedEvent): BlockChanges | 'all' => {
    if (event.removedFromChain.length > 0 || event.addedToChain.length > 1) return 'all';
    const ids = new Set<BlockId>([event.block.id, ...event.ghostdag.mergesetBlues, ...event.ghostdag.mergesetReds, ...chain.tips().map((t) => t.id)]);
    const parts: BlockChanges[] = [];
    for (const id of ids) {
      const changes = changesOf(id);
      if (changes === undefined) return 'all';
      parts.push(changes);
    }
    return mergeChanges(parts);
  };
  const unsubscribeChain = chain.onBlockAccepted((event) => {
    const { accepted, refused, conflictKeys } = acceptance ?? { accepted: [], refused: [], conflictKeys: [] };
    acceptance = undefined;
    // An empty pool has no sender to recheck: a syncing node does not summarise the blocks it replays.
    const change = pool.size === 0 ? { payers: [], records: [] } : changeOf(event);
    // What the new block carries is accepted by the virtual state now and by a chain block later: a pooled copy the
    // recheck refuses for that reason stays pending to the API (`carried`) instead of showing as dropped.
    const carried = pool.size === 0 ? [] : (chain.getBlock(event.block.id)?.transactions ?? []).map((tx) => toHex(blake3(tx)));
    pool.blockApplied({ accepted, refused, conflictKeys, change, carried });
    pool.expire();
    notify();
  });

  return {
    pool,
    async submit(bytes) {
      const entry = await pool.add(bytes);
      await journal.durable(entry.hash);
      rebroadcast.track(entry);
      return entry;
    },
    async restore() {
      // The journal holds canonical bytes, so BLAKE3 of them is the pool's hash (src/mempool/entry.ts).
      const journaled = journal.load(blake3);
      if (journaled.length === 0) return { restored: 0, refused: 0 };
      const results = await pool.readmit(journaled.map((row) => row.bytes));
      let refused = 0;
      for (const [i, result] of results.entries()) {
        if (result.ok) {
          rebroadcast.track(result.entry);
          continue;
        }
        refused++;
        await journal.remove(journaled[i]!.hash);
      }
      logger.info({ restored: journaled.length - refused, refused }, 'mempool restored from its journal');
      return { restored: journaled.length - refused, refused };
    },
    onRebroadcast: (listener) => rebroadcast.onRebroadcast(listener),
    selectTransactions: (selection) =>
      pool.selectForBlock({ maxBytes: selection.maxBytes, maxCount: selection.maxCount, maxMass: selection.maxMass }).transactions.map((entry) => entry.bytes),
    onInputsChanged: (listener) => void changed.add(listener),
    async close() {
      clearInterval(rebroadcastTimer);
      unsubscribePool();
      unsubscribeJournal();
      unsubscribeLedger();
      unsubscribeChain();
      await verifier.close();
    },
  };
}

/** What a block paid its own miner, read from the acceptance record of the chain block that merged it. */
export function ledgerRewardReader(ledger: Ledger): MiningRewardReader {
  return {
    source: 'ledger',
    rewardOf(block) {
      const merger = ledger.mergedBy(block.id);
      if (merger === null) return undefined;
      const entry = ledger.acceptanceOf(merger)?.merged.find((m) => m.id === block.id);
      if (!entry) return undefined;
      // Kaspa's rule (docs/state.md): a red block's subsidy and fees go to the merging block's miner instead.
      return entry.blue ? entry.subsidy + entry.fees : 0n;
    },
  };
}
