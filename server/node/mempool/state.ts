/**
 * The state of the node's transaction pool service (server/node/mempool-service.ts): the pool and its journal, the
 * rebroadcaster, the template listeners, the acceptance waiting for its block's event and the blocks' change
 * summaries. The operations are free functions beside it: follow-chain.ts (the ledger's and the chain's events),
 * journal.ts (submit and restore).
 */
import type { Chain } from '../../../src/chain/chain.ts';
import { massRulesAt, rulesV2Active } from '../../../src/consensus/activation.ts';
import type { BlockId } from '../../../src/consensus/ghostdag.ts';
import type { NetworkParams } from '../../../src/consensus/params.ts';
import { decodeAgentRecord } from '../../../src/kinds/agent/agent-record.ts';
import type { BlockChanges } from '../../../src/mempool/block-changes.ts';
import { createMempoolJournal, type MempoolJournal } from '../../../src/mempool/journal.ts';
import { mempoolOwnTxRebroadcastMs, mempoolTxCountMax } from '../../../src/mempool/mempool-limits.ts';
import { createMempool, type Mempool } from '../../../src/mempool/mempool.ts';
import { createRebroadcaster, type Rebroadcaster } from '../../../src/mempool/rebroadcast.ts';
import type { Ledger } from '../../../src/state/ledger.ts';
import type { KvStore } from '../../../src/storage/kv.ts';
import type { Clock } from '../../../src/util/clock.ts';
import { createVerifyPool, type VerifyPool } from '../../crypto/verify-pool.ts';
import type { Logger } from '../../logger.ts';

export interface NodeMempoolOptions {
  readonly params: NetworkParams;
  readonly chain: Chain;
  readonly ledger: Ledger;
  readonly store: KvStore;
  readonly clock: Clock;
  readonly logger: Logger;
}

/** What the ledger's acceptance event said, kept until the chain's event for the same block applies it. */
interface PendingAcceptance {
  readonly accepted: Uint8Array[];
  readonly refused: Uint8Array[];
  readonly conflictKeys: string[];
}

export interface NodeMempoolState {
  readonly chain: Chain;
  readonly logger: Logger;
  readonly verifier: VerifyPool;
  readonly pool: Mempool;
  readonly journal: MempoolJournal;
  readonly rebroadcast: Rebroadcaster;
  /** Called whenever what a template would hold may have changed. */
  readonly changed: Set<() => void>;
  /** Blocks' change summaries, the oldest forgotten past blockChangesRemembered. */
  readonly summaries: Map<BlockId, BlockChanges>;
  acceptance: PendingAcceptance | undefined;
}

export function createNodeMempoolState(options: NodeMempoolOptions): NodeMempoolState {
  const { ledger, clock } = options;
  const verifier = createVerifyPool();
  const pool = createMempool({
    params: options.params,
    // The virtual state, read only: accounts, records and the DAA score the next acceptance runs at.
    accounts: ledger,
    records: (namespace, id) => ledger.getRecord(namespace, id),
    daaScore: () => ledger.virtual().daaScore,
    // The escrow rules of rules v2 (arbiters that can sign, disputes that end) at the next acceptance's DAA score.
    rulesV2: () => rulesV2Active(options.params, ledger.virtual().daaScore),
    // Mass re-priced from rules v3, a mass per transaction from v4: admission weighs for the next block's rules.
    massRules: () => massRulesAt(options.params, ledger.virtual().daaScore),
    // The version the ledger's virtual view is cached under: a new block, a new virtual state.
    stateVersion: () => options.chain.blockCount(),
    verifier,
    clock,
    // Pool-paid fees of agent transactions (docs/settlement.md "Fees and the energy pool"), at the virtual state.
    agentPool: (payer) => {
      const value = ledger.getRecord('agent', payer);
      return value === undefined ? undefined : decodeAgentRecord(value).energyPool;
    },
  });
  return {
    chain: options.chain,
    logger: options.logger,
    verifier,
    pool,
    journal: createMempoolJournal(options.store),
    rebroadcast: createRebroadcaster({ pool, clock, intervalMs: mempoolOwnTxRebroadcastMs, trackedMax: mempoolTxCountMax }),
    changed: new Set(),
    summaries: new Map(),
    acceptance: undefined,
  };
}

export function notify(state: NodeMempoolState): void {
  state.changed.forEach((listener) => listener());
}
