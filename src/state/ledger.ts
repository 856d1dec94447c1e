/**
 * The ledger (docs/state.md): accounts in the state trie, acceptance of every block's mergeset, rewards and
 * emission, the transaction index, and the read functions the RPC, the mempool and wallets use. It plugs into the
 * chain through the `ChainStateMachine` port (src/chain/state-port.ts): the chain asks it for each new block's
 * state root (validation, templates) and for the index rows to rewrite when the selected chain moves.
 *
 * Views:
 * - a block's committed state: the root in its header (its mergeset accepted onto its selected parent's state);
 * - the virtual state (what `account()` / `getAccount()` answer, Kaspa's virtual UTXO set): the selected tip's
 *   committed state plus the virtual block's mergeset — the tips' own transactions — accepted as the next block
 *   will accept them, energy accrued up to the virtual's DAA score; red blocks' rewards are withheld there until a
 *   real block merges them (it is their miner that gets them).
 *
 * @example
 *   const { chain, ledger } = await openLedgerChain({ params, store, clock });
 *   ledger.account(address).balance;                    // virtual state
 *   const { stateRoot, proof } = ledger.proveAccount(address); // against the selected tip's header
 *   ledger.proveRecord('escrow', escrowId);             // any namespace of src/state/namespaces.ts, same header
 */
import { rulesV2Active } from '../consensus/activation.ts';
import { openChain, type Chain, type ChainOptions } from '../chain/chain.ts';
import type { IndexedBlock } from '../chain/block-index.ts';
import { TrustedDataError } from '../chain/trusted-errors.ts';
import { isEmptyHash } from './trie-hash.ts';
import type { BlockStateInput, ChainStateMachine, ChainStateMachineFactory, PreparedBlockState } from '../chain/state-port.ts';
import type { BlockId } from '../consensus/ghostdag.ts';
import { emissionCapUnits } from '../consensus/emission.ts';
import type { NetworkParams } from '../consensus/params.ts';
import type { KvOp, KvStore } from '../storage/kv.ts';
import { assert } from '../errors.ts';
import { concatBytes, equalBytes, fromHex, toHex } from '../util/bytes.ts';
import type { RecordNamespace } from '../kinds/kind.ts';
import { acceptMergeset, type AcceptanceResult } from './acceptance.ts';
import type { AcceptanceRecord, AcceptanceTotals } from './acceptance-record.ts';
import { consensusTotalsKey, encodeConsensusTotals } from './consensus-totals.ts';
import { checkJoinRecord, committedTotals } from './join-record.ts';
import { encodeAcceptanceRecord } from './acceptance-record.ts';
import type { Account, AccountReader } from './account.ts';
import { accountKey, decodeAccount, emptyStoredAccount, encodeAccount, isEmptyAccount, type StoredAccount } from './account-codec.ts';
import { settleEnergy } from './energy.ts';
import { createStatePruning } from './state-pruning.ts';
import { createLedgerReads, ledgerKeys } from './ledger-rows.ts';
import { readReceipt, receiptRows } from './receipt-rows.ts';
import type { ContractReceipt } from '../kinds/contract-receipt.ts';
import { ledgerPreviewCacheMax } from './ledger-limits.ts';
import { stateKey, stateNamespace, type StateNamespaceName, type StateRecord } from './namespaces.ts';
import type { StateProof } from './proof.ts';
import { createStateTrie, type StateTrie } from './trie.ts';
import {
  chainMoveRows,
  countAddressHistory,
  countAddressRewards,
  getAddressHistory,
  getAddressRewards,
  getTransaction,
  inclusionRows,
  type AcceptanceEvent,
  type HistoryEntry,
  type RewardEntry,
  type TransactionRecord,
  type TxIndexContext,
} from './tx-index.ts';

export interface AccountProof {
  /** The selected tip, whose header's state root the proof is against. */
  readonly blockHash: BlockId;
  readonly stateRoot: Uint8Array;
  /** The trie key: BLAKE3("weft/state/account/v1" ‖ address). */
  readonly key: Uint8Array;
  readonly proof: StateProof;
  /** The account as committed in that header (null: absent), energy as stored (settle it with energy.ts). */
  readonly account: StoredAccount | null;
}

/** A record of any namespace proven against the selected tip's header (`proveRecord`). */
export interface RecordProof<N extends StateNamespaceName = StateNamespaceName> {
  readonly blockHash: BlockId;
  readonly stateRoot: Uint8Array;
  readonly namespace: N;
  /** The record's natural id (namespaces.ts) and its trie key, BLAKE3(tag ‖ id). */
  readonly id: Uint8Array;
  readonly key: Uint8Array;
  readonly proof: StateProof;
  /** The proven value decoded with the namespace's codec (null: absent). */
  readonly record: StateRecord<N> | null;
}

export interface SupplyFigures {
  /** The cap (`total_supply`). */
  readonly totalUnits: bigint;
  /** Units emitted in the virtual state (`circulating_supply`). */
  readonly circulatingUnits: bigint;
  readonly burntUnits: bigint;
  /** Coin fees and energy-paid fees of every accepted transaction so far; transactions accepted so far. */
  readonly feesTotalUnits: bigint;
  readonly energyUsedTotalUnits: bigint;
  readonly acceptedTransactions: bigint;
}

export interface VirtualInfo {
  readonly parents: readonly BlockId[];
  readonly daaScore: number;
  readonly blueScore: number;
}

export interface Ledger extends AccountReader {
  /** The account at the virtual state (`emptyAccount` fields when never used). */
  getAccount(address: Uint8Array): Account;
  /** The account committed in a block's header state, energy accrued to that block's DAA score. */
  getAccountAt(address: Uint8Array, block: BlockId): Account | undefined;
  proveAccount(address: Uint8Array): AccountProof;
  /** A non-account record's stored value (version byte first) at the virtual state, or undefined when absent. */
  getRecord(namespace: RecordNamespace, id: Uint8Array): Uint8Array | undefined;
  /** Proves record `id` of `namespace` (present or absent) against the selected tip's header; StateError 'bad-key' for a wrong-length id. */
  proveRecord<N extends StateNamespaceName>(namespace: N, id: Uint8Array): RecordProof<N>;
  getTransaction(hash: Uint8Array): TransactionRecord | undefined;
  /** The receipt of a contract transaction accepted by chain block `acceptingBlock` (not consensus). */
  contractReceipt(acceptingBlock: Uint8Array, txHash: Uint8Array): ContractReceipt | undefined;
  /** Accepted transactions of an address, newest first; limit ≤ ledgerHistoryLimitMax. */
  getAddressHistory(address: Uint8Array, limit: number, offset: number): HistoryEntry[];
  /** How many entries getAddressHistory has for the address in all. */
  countAddressHistory(address: Uint8Array): number;
  /** Block rewards an address received on the selected chain, newest first; limit ≤ ledgerHistoryLimitMax. */
  getAddressRewards(address: Uint8Array, limit: number, offset: number): RewardEntry[];
  countAddressRewards(address: Uint8Array): number;
  /** What a block's mergeset acceptance did (stored record), or undefined for unknown blocks. */
  acceptanceOf(block: BlockId): AcceptanceRecord | undefined;
  /** The chain block that merged `block` on the current selected chain, or null. */
  mergedBy(block: BlockId): BlockId | null;
  supply(): SupplyFigures;
  virtual(): VirtualInfo;
  /** The virtual state's root (hashes the virtual's changes; for audits and tests). */
  virtualStateRoot(): Uint8Array;
  onAcceptance(listener: (event: AcceptanceEvent) => void): () => void;
}

interface VirtualView {
  readonly version: number;
  readonly info: VirtualInfo;
  readonly parentRoot: Uint8Array;
  readonly result: AcceptanceResult;
  readonly updates: Map<string, Uint8Array | null>;
  readonly totals: AcceptanceRecord;
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

/**
 * A chain joined at `block` (docs/pruning-proof.md "Trusted data") accepts its children's mergesets onto its state and
 * the point's running totals (emission is capped by them): from rules v2 on those the point's state commits to
 * (checkJoinRecord), before it the record as the trusted data gave it. The state must have been imported first.
 */
function joinRows(store: KvStore, trie: StateTrie, params: NetworkParams, block: IndexedBlock, record: Uint8Array | undefined): KvOp[] {
  const root = block.header.stateRoot;
  if (!isEmptyHash(root) && !store.has(concatBytes(ledgerKeys.trieprefix, root))) {
    throw new TrustedDataError('state-missing', `the state ${toHex(root)} of the pruning point is not in the store: import it first`);
  }
  const kept = checkJoinRecord(params, block.header, record, () => committedTotals(trie, root));
  const value = rulesV2Active(params, block.header.daaScore) ? encodeAcceptanceRecord(kept) : record!;
  return [{ type: 'put', key: ledgerKeys.acceptance(block.hash), value }];
}

function publicAccount(account: StoredAccount, daaScore: number): Account {
  const settled = settleEnergy(account, daaScore);
  return { balance: settled.balance, nonce: settled.nonce, energy: settled.energy };
}

function createLedger(context: { readonly chain: Chain; readonly store: KvStore; readonly pruning?: boolean }): { ledger: Ledger; machine: ChainStateMachine } {
  const { chain, store } = context;
  const trie: StateTrie = createStateTrie({ store, prefix: ledgerKeys.trieprefix });
  const reads = createLedgerReads(chain, store);
  const pruning = createStatePruning(store, reads);
  const listeners = new Set<(event: AcceptanceEvent) => void>();
  const pendingEvents = new Map<BlockId, AcceptanceEvent>();
  const previews: Array<{ key: string; value: ReturnType<ChainStateMachine['previewBlock']> }> = [];
  let virtualView: VirtualView | undefined;

  const readAt = (root: Uint8Array) => (address: Uint8Array): StoredAccount | undefined => {
    const value = trie.get(root, accountKey(address));
    return value === undefined ? undefined : decodeAccount(value);
  };

  /**
   * Accepts a (real or would-be) block's mergeset onto its selected parent's committed state. Under rules v2 the
   * totals it starts from are those the parent's state commits to (its record's only at the first v2 block, whose
   * parent's state has none), and the resulting totals are written into the trie with the rest (`updates`).
   */
  const accept = (input: BlockStateInput): { parentRoot: Uint8Array; result: AcceptanceResult; record: AcceptanceRecord; updates: Map<string, Uint8Array | null> } => {
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
    const result = acceptMergeset({ read: readAt(parentRoot), readRecord: (key) => trie.get(parentRoot, key), merged, mergingMiner: input.miner, daaScore: input.daaScore, emittedBefore: before.emitted, rulesV2: v2 });
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
  };

  const virtual = (): VirtualView => {
    const version = chain.blockCount();
    if (virtualView?.version === version) return virtualView;
    const { parents, ghostdag } = chain.virtualParents();
    const sp = chain.get(ghostdag.selectedParent!)!;
    const daaScore = sp.header.daaScore + ghostdag.mergesetSize;
    const { parentRoot, result, record, updates } = accept({ ghostdag, mergeset: chain.orderedMergeset(ghostdag), miner: null, daaScore });
    virtualView = { version, info: { parents, daaScore, blueScore: ghostdag.blueScore }, parentRoot, result, updates, totals: record };
    return virtualView;
  };

  const virtualAccount = (address: Uint8Array): Account => {
    const v = virtual();
    const stored = v.result.changes.get(toHex(address))?.account ?? readAt(v.parentRoot)(address) ?? emptyStoredAccount;
    return publicAccount(stored, v.info.daaScore);
  };

  const virtualRewards = (address: Uint8Array): RewardEntry[] =>
    virtual()
      .result.blocks.filter((b) => b.recipient !== null && b.reward > 0n && equalBytes(b.recipient, address))
      .reverse()
      .map((b) => ({ block: b.id, blue: b.blue, subsidy: b.subsidy, fees: b.fees, acceptingBlock: null, confirmations: 0 }));

  const txContext: TxIndexContext = { chain, store, reads, virtualBlueScore: () => virtual().info.blueScore };

  const machine: ChainStateMachine = {
    prepareBlock(input, block): PreparedBlockState {
      reads.rememberTransactions(block.id, block.transactions);
      const { parentRoot, result, record, updates } = accept(input);
      const { root, ops } = trie.applyUpdates(parentRoot, updates);
      reads.rememberRecord(block.id, record);
      ops.push({ type: 'put', key: ledgerKeys.acceptance(block.hash), value: encodeAcceptanceRecord(record) });
      ops.push(...inclusionRows(block.hash, block.transactions));
      ops.push(...receiptRows(block.hash, result.blocks, reads));
      const log = context.pruning ? pruning.writeLogRow(block.hash, ops) : undefined;
      if (log) ops.push(log);
      return { stateRoot: root, ops };
    },
    previewBlock(input) {
      const key = `${input.mergeset.join(',')}|${input.miner ? toHex(input.miner) : '-'}|${input.daaScore}`;
      const cached = previews.find((p) => p.key === key);
      if (cached) return cached.value;
      const { parentRoot, result, updates } = accept(input);
      const { root } = trie.applyUpdates(parentRoot, updates);
      const read = readAt(parentRoot);
      const accounts = {
        account: (address: Uint8Array): Account =>
          publicAccount(result.changes.get(toHex(address))?.account ?? read(address) ?? emptyStoredAccount, input.daaScore),
      };
      const value = { stateRoot: root, accounts };
      previews.unshift({ key, value });
      previews.length = Math.min(previews.length, ledgerPreviewCacheMax);
      return value;
    },
    chainMoved(removed, added, cause) {
      const { ops, event } = chainMoveRows(reads, removed, added);
      pendingEvents.set(cause, event);
      return ops;
    },
    pruneState: (round) => pruning.pruneState(round),
    pruneRows: (chainBlock, merged) => pruning.pruneRows(chainBlock, merged),
    pruningPointRecord: (block) => store.get(ledgerKeys.acceptance(block.hash)),
    joinAt(block, record, carried) {
      const ops = joinRows(store, trie, chain.params, block, record);
      // Their transactions are found by hash as on the node they came from (accepted by the blocks above the point).
      for (const body of carried) ops.push(...inclusionRows(body.hash, reads.transactions(body.id)));
      return ops;
    },
  };

  // Acceptance events go out once the block that moved the chain is durable (the chain's own event).
  chain.onBlockAccepted(({ block }) => {
    const event = pendingEvents.get(block.id);
    if (event === undefined) return;
    pendingEvents.delete(block.id);
    for (const listener of listeners) listener(event);
  });

  const ledger: Ledger = {
    account: virtualAccount,
    getAccount: virtualAccount,
    getAccountAt(address, id) {
      const block = chain.get(id);
      if (!block) return undefined;
      return publicAccount(readAt(block.header.stateRoot)(address) ?? emptyStoredAccount, block.header.daaScore);
    },
    getRecord(namespace, id) {
      const v = virtual();
      const key = stateKey(namespace, id);
      const changed = v.result.records.get(toHex(key));
      return changed === undefined ? trie.get(v.parentRoot, key) : (changed.value ?? undefined);
    },
    proveAccount(address) {
      const { blockHash, stateRoot, key, proof, record } = ledger.proveRecord('account', address);
      return { blockHash, stateRoot, key, proof, account: record };
    },
    proveRecord(name, id) {
      const tip = chain.selectedTip();
      const namespace = stateNamespace(name);
      const key = namespace.key(id);
      const proof = trie.prove(tip.header.stateRoot, key);
      const record = proof.kind === 'inclusion' ? namespace.codec.decode(proof.value) : null;
      return { blockHash: tip.id, stateRoot: tip.header.stateRoot.slice(), namespace: name, id: id.slice(), key, proof, record };
    },
    getTransaction: (hash) => getTransaction(txContext, hash),
    contractReceipt: (acceptingBlock, txHash) => readReceipt(store, acceptingBlock, txHash),
    getAddressHistory: (address, limit, offset) => getAddressHistory(txContext, address, limit, offset),
    countAddressHistory: (address) => countAddressHistory(txContext, address),
    // The virtual's acceptance credits the tips' rewards to the balance before any chain block does: they come first.
    getAddressRewards(address, limit, offset) {
      const pending = virtualRewards(address);
      const fromPending = pending.slice(offset, offset + limit);
      return [...fromPending, ...getAddressRewards(txContext, address, limit - fromPending.length, Math.max(0, offset - pending.length))];
    },
    countAddressRewards: (address) => virtualRewards(address).length + countAddressRewards(txContext, address),
    // A pruned block's record is gone with it (docs/storage.md "Pruning"): unknown, like a block never seen.
    acceptanceOf: (id) => (chain.has(id) && (id === chain.genesis.id || store.has(ledgerKeys.acceptance(fromHex(id)))) ? reads.record(id) : undefined),
    mergedBy(id) {
      const row = store.get(ledgerKeys.mergedBy(chain.get(id)?.hash ?? new Uint8Array(32)));
      return row === undefined ? null : toHex(row);
    },
    supply() {
      const t = virtual().totals;
      return {
        totalUnits: emissionCapUnits,
        circulatingUnits: t.emitted,
        burntUnits: t.burnt,
        feesTotalUnits: t.feesTotal,
        energyUsedTotalUnits: t.energyUsedTotal,
        acceptedTransactions: t.acceptedTotal,
      };
    },
    virtual: () => virtual().info,
    virtualStateRoot() {
      const v = virtual();
      return trie.applyUpdates(v.parentRoot, v.updates).root;
    },
    onAcceptance(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  // A store from before the ledger has no acceptance rows: refuse it loudly rather than answer wrongly. A chain
  // joining at a pruning point gets its point's record next (joinAt), in the join's last batch.
  const joining = chain.joinedAt !== undefined && !store.has(ledgerKeys.acceptance(chain.joinedAt.hash));
  if (!joining) reads.record(chain.selectedTip().id);
  return { ledger, machine };
}

/** The ledger's factory for `openChain({ stateMachine })`; `ledger()` is available once openChain returned. */
function ledgerStateMachine(): { factory: ChainStateMachineFactory; ledger: () => Ledger } {
  let built: Ledger | undefined;
  return {
    factory(context) {
      const { ledger, machine } = createLedger(context);
      built = ledger;
      return machine;
    },
    ledger() {
      assert(built !== undefined, 'the ledger exists once openChain has returned');
      return built;
    },
  };
}

/** Opens a chain whose blocks carry state: the full node's and the tests' entry point. */
export async function openLedgerChain(options: Omit<ChainOptions, 'stateMachine'>): Promise<{ chain: Chain; ledger: Ledger }> {
  const wiring = ledgerStateMachine();
  const chain = await openChain({ ...options, stateMachine: wiring.factory });
  return { chain, ledger: wiring.ledger() };
}
