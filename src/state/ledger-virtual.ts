/**
 * The ledger's state (LedgerState) and the operations over it that accept a mergeset: a block's, or the virtual's
 * (the state the RPC answers from: the tips merged onto the selected tip's state, cached per chain version).
 * ledger.ts wires these into the Ledger, ledger-machine.ts into the chain's state machine.
 */
import { rulesV2Active } from '../consensus/activation.ts';
import type { Chain } from '../chain/chain.ts';
import type { BlockStateInput, ChainStateMachine } from '../chain/state-port.ts';
import type { BlockId } from '../consensus/ghostdag.ts';
import type { KvOp, KvStore } from '../storage/kv.ts';
import { equalBytes, toHex } from '../util/bytes.ts';
import { acceptMergeset, type AcceptanceResult } from './acceptance.ts';
import type { AcceptanceRecord, AcceptanceTotals } from './acceptance-record.ts';
import type { Account } from './account.ts';
import { accountKey, decodeAccount, emptyStoredAccount, encodeAccount, isEmptyAccount, type StoredAccount } from './account-codec.ts';
import { consensusTotalsKey, encodeConsensusTotals } from './consensus-totals.ts';
import { settleEnergy } from './energy.ts';
import { ledgerVirtualAccountsMax } from './ledger-limits.ts';
import { committedTotals } from './join-record.ts';
import type { LedgerReads } from './ledger-rows.ts';
import type { StatePruning } from './state-pruning.ts';
import type { StateTrie } from './trie.ts';
import type { AcceptanceEvent, RewardEntry } from './tx-index.ts';

export interface VirtualInfo {
  readonly parents: readonly BlockId[];
  readonly daaScore: number;
  readonly blueScore: number;
}

interface VirtualView {
  readonly version: number;
  readonly info: VirtualInfo;
  readonly parentRoot: Uint8Array;
  readonly result: AcceptanceResult;
  readonly updates: Map<string, Uint8Array | null>;
  readonly totals: AcceptanceRecord;
  /** Accounts read at this view (address hex → public account): the pool reads each sender several times a block. */
  readonly accounts: Map<string, Account>;
}

/** Everything the ledger holds between calls. */
export interface LedgerState {
  readonly chain: Chain;
  readonly store: KvStore;
  readonly trie: StateTrie;
  readonly reads: LedgerReads;
  readonly pruning: StatePruning;
  /** Write the pruning log row with each block (the node prunes state). */
  readonly pruningOn: boolean;
  readonly listeners: Set<(event: AcceptanceEvent) => void>;
  /** Acceptance events held until the block that moved the chain is durable. */
  readonly pendingEvents: Map<BlockId, AcceptanceEvent>;
  /** Recent previewBlock answers with the acceptance behind them, newest first, at most ledgerPreviewCacheMax. */
  readonly previews: Array<{ key: string; value: LedgerPreview }>;
  virtualView: VirtualView | undefined;
}

/** A previewBlock answer and what computed it: prepareBlock takes the acceptance and trie update of a block mined from it. */
interface LedgerPreview extends ReturnType<ChainStateMachine['previewBlock']> {
  readonly acceptance: Acceptance;
  readonly trieUpdate: { readonly root: Uint8Array; readonly ops: readonly KvOp[] };
}

export interface Acceptance {
  readonly parentRoot: Uint8Array;
  readonly result: AcceptanceResult;
  readonly record: AcceptanceRecord;
  readonly updates: Map<string, Uint8Array | null>;
}

const totalsTrieKey = toHex(consensusTotalsKey);

/**
 * The trie writes of an acceptance: changed accounts (an empty one is deleted), changed namespaced records and, under
 * rules v2, the resulting consensus totals (consensus-totals.ts) in the same batch.
 */
function stateUpdates(result: AcceptanceResult, totals: AcceptanceTotals | undefined): Map<string, Uint8Array | null> {
  const updates = new Map<string, Uint8Array | null>();
  for (const { address, account } of result.changes.values()) {
    updates.set(toHex(accountKey(address)), isEmptyAccount(account) ? null : encodeAccount(account));
  }
  for (const [key, change] of result.records) updates.set(key, change.value);
  if (totals !== undefined) updates.set(totalsTrieKey, encodeConsensusTotals(totals));
  return updates;
}

export function publicAccount(account: StoredAccount, daaScore: number): Account {
  const settled = settleEnergy(account, daaScore);
  return { balance: settled.balance, nonce: settled.nonce, energy: settled.energy };
}

/** The account reader of the state under `root`. */
export function readAccountAt(state: LedgerState, root: Uint8Array): (address: Uint8Array) => StoredAccount | undefined {
  return (address) => {
    const value = state.trie.get(root, accountKey(address));
    return value === undefined ? undefined : decodeAccount(value);
  };
}

/**
 * Accepts a (real or would-be) block's mergeset onto its selected parent's committed state. Under rules v2 the
 * totals it starts from are those the parent's state commits to (its record's only at the first v2 block, whose
 * parent's state has none), and the resulting totals are written into the trie with the rest (`updates`).
 */
export function acceptOnto(state: LedgerState, input: BlockStateInput): Acceptance {
  const { chain, trie, reads } = state;
  const sp = input.ghostdag.selectedParent!;
  const parentRoot = chain.get(sp)!.header.stateRoot;
  const v2 = rulesV2Active(chain.params, input.daaScore);
  const before: AcceptanceTotals = (v2 ? committedTotals(trie, parentRoot) : undefined) ?? reads.record(sp);
  const blues = new Set(input.ghostdag.mergesetBlues);
  const merged = input.mergeset.map((id) => {
    const header = chain.get(id)!.header;
    const transactions = reads.transactions(id);
    return { id, miner: header.miner, daaScore: header.daaScore, timestampMs: header.timestampMs, blue: blues.has(id), transactions };
  });
  const result = acceptMergeset({ read: readAccountAt(state, parentRoot), readRecord: (key) => trie.get(parentRoot, key), merged, mergingMiner: input.miner, daaScore: input.daaScore, emittedBefore: before.emitted, rulesV2: v2 });
  let fees = 0n;
  let energy = 0n;
  let count = 0n;
  for (const b of result.blocks) {
    fees += b.fees;
    energy += b.energyUsed;
    for (const ok of b.accepted) if (ok) count++;
  }
  const record: AcceptanceRecord = {
    emitted: result.emitted,
    burnt: before.burnt + result.burnt,
    feesTotal: before.feesTotal + fees,
    energyUsedTotal: before.energyUsedTotal + energy,
    acceptedTotal: before.acceptedTotal + count,
    merged: result.blocks.map((b) => ({ id: b.id, blue: b.blue, subsidy: b.subsidy, fees: b.fees, energyUsed: b.energyUsed, accepted: b.accepted })),
  };
  return { parentRoot, result, record, updates: stateUpdates(result, v2 ? record : undefined) };
}

/** The virtual's acceptance, recomputed only when the chain changed since the last call. */
export function virtualOf(state: LedgerState): VirtualView {
  const { chain } = state;
  const version = chain.blockCount();
  if (state.virtualView?.version === version) return state.virtualView;
  const { parents, ghostdag } = chain.virtualParents();
  const sp = chain.get(ghostdag.selectedParent!)!;
  const daaScore = sp.header.daaScore + ghostdag.mergesetSize;
  const { parentRoot, result, record, updates } = acceptOnto(state, { ghostdag, mergeset: chain.orderedMergeset(ghostdag), miner: null, daaScore });
  state.virtualView = { version, info: { parents, daaScore, blueScore: ghostdag.blueScore }, parentRoot, result, updates, totals: record, accounts: new Map() };
  return state.virtualView;
}

export function virtualAccount(state: LedgerState, address: Uint8Array): Account {
  const v = virtualOf(state);
  const key = toHex(address);
  const known = v.accounts.get(key);
  if (known !== undefined) return known;
  const stored = v.result.changes.get(key)?.account ?? readAccountAt(state, v.parentRoot)(address) ?? emptyStoredAccount;
  const account = Object.freeze(publicAccount(stored, v.info.daaScore));
  // Bounded: an RPC client asking for many addresses between two blocks only empties the memo sooner.
  if (v.accounts.size >= ledgerVirtualAccountsMax) v.accounts.clear();
  v.accounts.set(key, account);
  return account;
}

/** Rewards the virtual's acceptance credits to `address` (the tips'), newest first. */
export function virtualRewards(state: LedgerState, address: Uint8Array): RewardEntry[] {
  return virtualOf(state)
    .result.blocks.filter((b) => b.recipient !== null && b.reward > 0n && equalBytes(b.recipient, address))
    .reverse()
    .map((b) => ({ block: b.id, blue: b.blue, subsidy: b.subsidy, fees: b.fees, acceptingBlock: null, confirmations: 0 }));
}
