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
import { openChain, type Chain, type ChainOptions } from '../chain/chain.ts';
import type { ChainStateMachineFactory } from '../chain/chain-types.ts';
import type { ChainStateMachine } from '../chain/state-port.ts';
import type { BlockId } from '../consensus/ghostdag.ts';
import { emissionCapUnits } from '../consensus/emission.ts';
import type { KvStore } from '../storage/kv.ts';
import { assert } from '../errors.ts';
import { fromHex, toHex } from '../util/bytes.ts';
import type { RecordNamespace } from '../kinds/kind.ts';
import type { AcceptanceRecord } from './acceptance-record.ts';
import type { Account, AccountReader } from './account.ts';
import { emptyStoredAccount, type StoredAccount } from './account-codec.ts';
import { createStatePruning } from './state-pruning.ts';
import { createLedgerReads, ledgerKeys } from './ledger-rows.ts';
import { ledgerMachine } from './ledger-machine.ts';
import { publicAccount, readAccountAt, virtualAccount, virtualOf, virtualRewards, type LedgerState, type VirtualInfo } from './ledger-virtual.ts';
import { readReceipt } from './receipt-rows.ts';
import type { ContractReceipt } from '../kinds/contract-receipt.ts';
import { stateKey, stateNamespace, type StateNamespaceName, type StateRecord } from './namespaces.ts';
import type { StateProof } from './proof.ts';
import { createStateTrie } from './trie.ts';
import { createTrieNodeCache } from './trie-node-cache.ts';
import { createTrieValueCache } from './trie-value-cache.ts';
import { ledgerTrieNodeCacheMax, ledgerTrieValueCacheMax } from './ledger-limits.ts';
import {
  countAddressHistory,
  countAddressRewards,
  getAddressHistory,
  getAddressRewards,
  getTransaction,
  type AcceptanceEvent,
  type HistoryEntry,
  type RewardEntry,
  type TransactionRecord,
  type TxIndexContext,
} from './tx-index.ts';

interface AccountProof {
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
interface RecordProof<N extends StateNamespaceName = StateNamespaceName> {
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

interface SupplyFigures {
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

/** Proves record `id` of namespace `name` (present or absent) against the selected tip's header. */
function proveRecordAtTip<N extends StateNamespaceName>(state: LedgerState, name: N, id: Uint8Array): RecordProof<N> {
  const tip = state.chain.selectedTip();
  const namespace = stateNamespace(name);
  const key = namespace.key(id);
  const proof = state.trie.prove(tip.header.stateRoot, key);
  const record = proof.kind === 'inclusion' ? namespace.codec.decode(proof.value) : null;
  return { blockHash: tip.id, stateRoot: tip.header.stateRoot.slice(), namespace: name, id: id.slice(), key, proof, record };
}

function virtualRecord(state: LedgerState, namespace: RecordNamespace, id: Uint8Array): Uint8Array | undefined {
  const v = virtualOf(state);
  const key = stateKey(namespace, id);
  const changed = v.result.records.get(toHex(key));
  return changed === undefined ? state.trie.get(v.parentRoot, key) : (changed.value ?? undefined);
}

function virtualSupply(state: LedgerState): SupplyFigures {
  const t = virtualOf(state).totals;
  return {
    totalUnits: emissionCapUnits,
    circulatingUnits: t.emitted,
    burntUnits: t.burnt,
    feesTotalUnits: t.feesTotal,
    energyUsedTotalUnits: t.energyUsedTotal,
    acceptedTransactions: t.acceptedTotal,
  };
}

function openLedgerState(context: { readonly chain: Chain; readonly store: KvStore; readonly pruning?: boolean }): LedgerState {
  const { chain, store } = context;
  const trie = createStateTrie({
    store,
    prefix: ledgerKeys.trieprefix,
    nodeCache: createTrieNodeCache(ledgerTrieNodeCacheMax),
    valueCache: createTrieValueCache(ledgerTrieValueCacheMax),
  });
  const reads = createLedgerReads(chain, store);
  const pruning = createStatePruning(store, reads);
  return { chain, store, trie, reads, pruning, pruningOn: context.pruning === true, listeners: new Set(), pendingEvents: new Map(), previews: [], virtualView: undefined };
}

function createLedger(context: { readonly chain: Chain; readonly store: KvStore; readonly pruning?: boolean }): { ledger: Ledger; machine: ChainStateMachine } {
  const state = openLedgerState(context);
  const { chain, store, trie, reads } = state;
  const txContext: TxIndexContext = { chain, store, reads, virtualBlueScore: () => virtualOf(state).info.blueScore };

  // Acceptance events go out once the block that moved the chain is durable (the chain's own event).
  chain.onBlockAccepted(({ block }) => {
    const event = state.pendingEvents.get(block.id);
    if (event === undefined) return;
    state.pendingEvents.delete(block.id);
    for (const listener of state.listeners) listener(event);
  });

  const ledger: Ledger = {
    account: (address) => virtualAccount(state, address),
    getAccount: (address) => virtualAccount(state, address),
    getAccountAt(address, id) {
      const block = chain.get(id);
      if (!block) return undefined;
      return publicAccount(readAccountAt(state, block.header.stateRoot)(address) ?? emptyStoredAccount, block.header.daaScore);
    },
    getRecord: (namespace, id) => virtualRecord(state, namespace, id),
    proveAccount(address) {
      const { blockHash, stateRoot, key, proof, record } = proveRecordAtTip(state, 'account', address);
      return { blockHash, stateRoot, key, proof, account: record };
    },
    proveRecord: (name, id) => proveRecordAtTip(state, name, id),
    getTransaction: (hash) => getTransaction(txContext, hash),
    contractReceipt: (acceptingBlock, txHash) => readReceipt(store, acceptingBlock, txHash),
    getAddressHistory: (address, limit, offset) => getAddressHistory(txContext, address, limit, offset),
    countAddressHistory: (address) => countAddressHistory(txContext, address),
    // The virtual's acceptance credits the tips' rewards to the balance before any chain block does: they come first.
    getAddressRewards(address, limit, offset) {
      const pending = virtualRewards(state, address);
      const fromPending = pending.slice(offset, offset + limit);
      return [...fromPending, ...getAddressRewards(txContext, address, limit - fromPending.length, Math.max(0, offset - pending.length))];
    },
    countAddressRewards: (address) => virtualRewards(state, address).length + countAddressRewards(txContext, address),
    // A pruned block's record is gone with it (docs/storage.md "Pruning"): unknown, like a block never seen.
    acceptanceOf: (id) => (chain.has(id) && (id === chain.genesis.id || store.has(ledgerKeys.acceptance(fromHex(id)))) ? reads.record(id) : undefined),
    mergedBy(id) {
      const row = store.get(ledgerKeys.mergedBy(chain.get(id)?.hash ?? new Uint8Array(32)));
      return row === undefined ? null : toHex(row);
    },
    supply: () => virtualSupply(state),
    virtual: () => virtualOf(state).info,
    virtualStateRoot() {
      const v = virtualOf(state);
      return trie.applyUpdates(v.parentRoot, v.updates).root;
    },
    onAcceptance(listener) {
      state.listeners.add(listener);
      return () => state.listeners.delete(listener);
    },
  };
  // A store from before the ledger has no acceptance rows: refuse it loudly rather than answer wrongly. A chain
  // joining at a pruning point gets its point's record next (joinAt), in the join's last batch.
  const joining = chain.joinedAt !== undefined && !store.has(ledgerKeys.acceptance(chain.joinedAt.hash));
  if (!joining) reads.record(chain.selectedTip().id);
  return { ledger, machine: ledgerMachine(state) };
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
