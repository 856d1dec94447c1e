/**
 * The port through which the chain (layer 3) has blocks' state computed by the ledger (src/state/, layer 4) without
 * importing it: the composition root hands `openChain` a factory, and the ledger implements this interface.
 *
 * A block's state (docs/design.md "Consensus") is its mergeset's transactions accepted, in consensus order, onto its selected
 * parent's state; its header commits to that root. The state of a block therefore depends on its past only, so
 * it is computed once, when the block is validated, and its rows are immutable. What a move of the selected chain
 * changes is only which blocks are on the chain: the ledger rewrites its chain-dependent index rows then.
 */
import type { BlockHeader } from '../codec/header.ts';
import type { AnyTransaction } from '../kinds/transaction-codec.ts';
import type { BlockId, GhostdagData } from '../consensus/ghostdag.ts';
import type { KvOp } from '../storage/kv.ts';
import type { IndexedBlock } from './block-index.ts';

/** A transaction of a block body as validation decoded it. */
export interface BlockTransaction {
  readonly bytes: Uint8Array;
  readonly tx: AnyTransaction;
  /** BLAKE3 of `bytes`: the transaction id. */
  readonly hash: Uint8Array;
}

/** What a (real or would-be) block's state depends on. */
export interface BlockStateInput {
  /** GHOSTDAG data of the block (selected parent, blues, reds). */
  readonly ghostdag: GhostdagData;
  /** The mergeset in consensus order: the selected parent first, then ascending (blue work, hash). */
  readonly mergeset: readonly BlockId[];
  /** Who gets red blocks' rewards; null for the virtual view (withheld until a real block merges them). */
  readonly miner: Uint8Array | null;
  readonly daaScore: number;
}

/** The same shape as src/state/account.ts `AccountReader` (declared here so the chain layer needs no import). */
export interface AccountLookup {
  account(address: Uint8Array): { readonly balance: bigint; readonly nonce: bigint; readonly energy: bigint };
}

export interface PreparedBlockState {
  readonly stateRoot: Uint8Array;
  /** Rows to commit in the block's batch (state-trie nodes, acceptance and index rows). */
  readonly ops: KvOp[];
}

export interface ChainStateMachine {
  /** Computes a new block's state and rows; nothing is written. */
  prepareBlock(input: BlockStateInput, block: { readonly id: BlockId; readonly hash: Uint8Array; readonly header: BlockHeader; readonly transactions: readonly BlockTransaction[] }): PreparedBlockState;
  /** The state root and accounts a would-be block with this input commits to (templates, fixtures). */
  previewBlock(input: BlockStateInput): { readonly stateRoot: Uint8Array; readonly accounts: AccountLookup };
  /** Index rows to rewrite when the selected chain moves; `removed` deepest-first, `added` ascending. */
  chainMoved(removed: readonly IndexedBlock[], added: readonly IndexedBlock[], cause: BlockId): KvOp[];
  /**
   * A pruning round's state garbage (docs/storage.md "Pruning"), as bounded delete batches the chain writes in
   * order, in the background. Only asked of a pruning node; run before any of the round's blocks' rows go.
   */
  pruneState(round: PruningRound): Iterable<KvOp[]>;
  /**
   * The rows to delete for selected-chain block `chainBlock` of a pruning round and the blocks of its mergeset
   * (`merged`, which fall below the pruning point with it): read before the chain deletes their bodies.
   */
  pruneRows(chainBlock: IndexedBlock, merged: readonly IndexedBlock[]): KvOp[];
  /** What the state machine keeps of a block beside its state root (trusted data carries it for the pruning point). */
  pruningPointRecord?(block: IndexedBlock): Uint8Array | undefined;
  /**
   * The rows that let a chain joined at `block` build on it: `record` as pruningPointRecord gave it, checked; the
   * state at the block's root must already be in the store; `carried` are the trusted blocks whose bodies the chain
   * stored (the point and its anticone), for the state machine's own indexes of them. Throws TrustedDataError
   * ('state-record', 'state-missing').
   */
  joinAt?(block: IndexedBlock, record: Uint8Array | undefined, carried: readonly IndexedBlock[]): KvOp[];
}

/** The pruning point moved from `from` to `to`: the blocks in to's past and not in from's go (from included). */
export interface PruningRound {
  readonly from: IndexedBlock;
  readonly to: IndexedBlock;
  /** Whether a block is one of the round's pruned blocks. */
  readonly isPruned: (id: BlockId) => boolean;
  /** The pruned blocks, in selected-chain order of the chain block that merges each. */
  readonly pruned: () => Iterable<IndexedBlock>;
}


