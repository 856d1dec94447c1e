/**
 * The node's transaction pool, wired to the ledger: admission checks every kind's state rules against the virtual
 * state and verifies signatures on worker threads; after each block (docs/mempool.md "After each block") what chain
 * blocks accepted leaves the pool, so does what acceptance refused, and exactly the senders the block can affect are
 * rechecked against the new virtual state; when a reorganisation takes chain blocks away, what they had accepted and
 * nobody re-accepted comes back (docs/design.md "Consensus"). Templates read the pool's candidate set. Every pooled transaction is journaled in the node's store (src/mempool/journal.ts):
 * `submit` acknowledges a transaction only once its row is durable, and `restore` readmits the journal at start.
 *
 * The service's state is one NodeMempoolState (mempool/state.ts); its operations are free functions in
 * server/node/mempool/ (follow-chain.ts, journal.ts). This file is the wiring.
 */
import type { PoolEntry } from '../../src/mempool/entry.ts';
import { mempoolOwnTxRebroadcastMs } from '../../src/mempool/mempool-limits.ts';
import type { Mempool } from '../../src/mempool/mempool.ts';
import type { TransactionSelection } from '../../src/mining/template.ts';
import { massRulesAt } from '../../src/consensus/activation.ts';
import { acceptanceApplied, blockAccepted } from './mempool/follow-chain.ts';
import { journalFollowsPool, restore, submit } from './mempool/journal.ts';
import { createNodeMempoolState, notify, type NodeMempoolOptions } from './mempool/state.ts';

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

export function startNodeMempool(options: NodeMempoolOptions): NodeMempool {
  const state = createNodeMempoolState(options);
  const { pool, rebroadcast } = state;
  const rebroadcastTimer = setInterval(() => rebroadcast.tick(), mempoolOwnTxRebroadcastMs / 4);
  rebroadcastTimer.unref();
  const unsubscribe = [
    pool.subscribe(() => notify(state)),
    journalFollowsPool(state),
    options.ledger.onAcceptance((event) => acceptanceApplied(state, event)),
    options.chain.onBlockAccepted((event) => blockAccepted(state, event)),
  ];
  return {
    pool,
    submit: (bytes) => submit(state, bytes),
    restore: () => restore(state),
    onRebroadcast: (listener) => rebroadcast.onRebroadcast(listener),
    selectTransactions: (selection) =>
      pool
        .selectForBlock({ maxBytes: selection.maxBytes, maxCount: selection.maxCount, maxMass: selection.maxMass, massRules: massRulesAt(options.params, selection.daaScore) })
        .transactions.map((entry) => entry.bytes),
    onInputsChanged: (listener) => void state.changed.add(listener),
    async close() {
      clearInterval(rebroadcastTimer);
      for (const stop of unsubscribe) stop();
      await state.verifier.close();
    },
  };
}
