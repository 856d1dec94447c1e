/**
 * The node's transaction pool, wired to the ledger: admission verifies signatures on worker threads; when chain
 * blocks accept transactions they leave the pool (and their senders are rechecked); when a reorganisation takes
 * chain blocks away, what they had accepted and nobody re-accepted comes back (docs/design.md "Consensus"). Templates take the
 * pool's best-paying valid set.
 */
import { decodeTransaction } from '../../src/codec/transaction.ts';
import { addressTouches } from '../../src/kinds/parties.ts';
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
  /** For buildBlockTemplate's `selectTransactions`. */
  selectTransactions(selection: TransactionSelection): readonly Uint8Array[];
  /** Called whenever what a template would hold may have changed (pool or chain moved). */
  onInputsChanged(listener: () => void): void;
  close(): Promise<void>;
}

export function startNodeMempool(options: { params: NetworkParams; ledger: Ledger; clock: Clock; logger: Logger }): NodeMempool {
  const { ledger, logger } = options;
  const verifier = createVerifyPool();
  const pool = createMempool({ params: options.params, accounts: ledger, verifier, clock: options.clock });
  const changed = new Set<() => void>();
  const notify = () => changed.forEach((listener) => listener());

  const unsubscribePool = pool.subscribe(notify);
  const unsubscribeLedger = ledger.onAcceptance((event) => {
    const accepted = event.added.flatMap((block) => block.accepted);
    const acceptedIds = new Set(accepted.map((ref) => toHex(ref.hash)));
    pool.removeAccepted(accepted.map((ref) => ref.hash));
    const touched = accepted.flatMap((ref) => addressTouches(decodeTransaction(ref.bytes)).map((t) => t.address));
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
    selectTransactions: (selection) =>
      pool.selectForBlock({ maxBytes: selection.maxBytes, maxCount: selection.maxCount, maxMass: selection.maxMass }).transactions.map((entry) => entry.bytes),
    onInputsChanged: (listener) => void changed.add(listener),
    async close() {
      unsubscribePool();
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
