/**
 * The node's transaction pool, wired to the ledger: admission verifies signatures on worker threads; when chain
 * blocks accept transactions they leave the pool (and their senders are rechecked); when a reorganisation takes
 * chain blocks away, what they had accepted and nobody re-accepted comes back (docs/design.md "Consensus"). Templates take the
 * pool's best-paying valid set. Every pooled transaction is journaled in the node's store (src/mempool/journal.ts):
 * `submit` acknowledges a transaction only once its row is durable, and `restore` readmits the journal at start.
 */
import { decodeAgentRecord } from '../../src/kinds/agent/agent-record.ts';
import { decodeTransaction } from '../../src/codec/transaction.ts';
import { blake3 } from '../../src/crypto/blake3.ts';
import { createMempoolJournal } from '../../src/mempool/journal.ts';
import { mempoolOwnTxRebroadcastMs, mempoolTxCountMax } from '../../src/mempool/mempool-limits.ts';
import { createRebroadcaster } from '../../src/mempool/rebroadcast.ts';
import type { PoolEntry } from '../../src/mempool/entry.ts';
import type { KvStore } from '../../src/storage/kv.ts';
import { addressTouches } from '../../src/kinds/parties.ts';
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

export function startNodeMempool(options: { params: NetworkParams; ledger: Ledger; store: KvStore; clock: Clock; logger: Logger }): NodeMempool {
  const { ledger, logger } = options;
  const verifier = createVerifyPool();
  const pool = createMempool({
    params: options.params,
    accounts: ledger,
    verifier,
    clock: options.clock,
    // Against the selected tip's state: a spend accepted since is still refused by acceptance, never accepted twice.
    keyImageSpent: (keyImage) => ledger.proveRecord('key_image', keyImage).record !== null,
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
  const unsubscribeLedger = ledger.onAcceptance((event) => {
    const accepted = event.added.flatMap((block) => block.accepted);
    const acceptedIds = new Set(accepted.map((ref) => toHex(ref.hash)));
    pool.removeAccepted(accepted.map((ref) => ref.hash));
    const acceptedTxs = accepted.map((ref) => decodeTransaction(ref.bytes));
    // A ring spend whose key image a peer's block spent (or an output key it created) can never be accepted now.
    pool.removeConflicting(acceptedTxs.flatMap((tx) => kindOf(tx).conflictKeys(tx)));
    const touched = acceptedTxs.flatMap((tx) => addressTouches(tx).map((t) => t.address));
    pool.revalidate(touched);
    pool.expire();
    const orphaned = event.removed.flatMap((block) => block.accepted).filter((ref) => !acceptedIds.has(toHex(ref.hash)));
    if (orphaned.length > 0) {
      void pool.readmit(orphaned.map((ref) => ref.bytes)).then((results) => {
        const back = results.filter((r) => r.ok).length;
        logger.info({ readmitted: back, refused: results.length - back }, 'transactions of reorganised blocks returned to the pool');
      });
    }
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
