/**
 * The chain's shared types: the Chain interface and its options, results and events, the state machine factory the
 * composition root hands it, the pruner's status and the trusted data a join imports. They live apart from the code
 * so the pipeline's stages (admit-block.ts, commit-block.ts, header-in-context.ts, ...) can name them without
 * importing chain.ts, which imports those stages: no import cycle, type-only ones included (docs/style.md).
 */
import type { Block } from '../codec/block.ts';
import type { BlockHeader } from '../codec/header.ts';
import type { BlockId, GhostdagData, GhostdagEngine, TrustedGhostdagData } from '../consensus/ghostdag.ts';
import type { NetworkParams } from '../consensus/params.ts';
import type { WitnessVerifier } from '../crypto/witness-check.ts';
import type { SignatureVerifier } from '../crypto/verifier.ts';
import type { KvStore } from '../storage/kv.ts';
import type { ReadCacheStats } from '../storage/read-cache.ts';
import type { Clock } from '../util/clock.ts';
import type { IndexedBlock } from './block-index.ts';
import type { AccountLookup, ChainStateMachine } from './state-port.ts';
export type AddBlockResult =
  | { readonly status: 'accepted'; readonly block: IndexedBlock; readonly selectedTipChanged: boolean }
  | { readonly status: 'duplicate'; readonly id: BlockId }
  | { readonly status: 'orphan'; readonly id: BlockId; readonly missing: readonly BlockId[] };

/** A block that would have moved the virtual selected chain off the finality point (refused, see depth-rules.ts). */
export interface FinalityConflictEvent {
  readonly block: BlockId;
  readonly finalityPoint: BlockId;
  readonly selectedTip: BlockId;
}

export interface BlockValidatedEvent {
  readonly block: IndexedBlock;
  /** The block as it was added: its transactions, without reading it back from the store. */
  readonly body: Block;
}

export interface BlockAcceptedEvent {
  readonly block: IndexedBlock;
  readonly ghostdag: GhostdagData;
  readonly selectedTipChanged: boolean;
  /** Blocks that left the virtual selected chain (a reorganisation), deepest last. */
  readonly removedFromChain: readonly BlockId[];
  /** Blocks that joined the virtual selected chain, ascending (the new selected tip last); empty when it did not move. */
  readonly addedToChain: readonly BlockId[];
}

/** What a would-be child of `parents` commits to: its GHOSTDAG data, DAA score, state root and post-mergeset accounts. */
export interface ChildState {
  readonly parents: readonly BlockId[];
  readonly ghostdag: GhostdagData;
  readonly mergeset: readonly BlockId[];
  readonly daaScore: number;
  readonly stateRoot: Uint8Array;
  readonly accounts: AccountLookup;
}

export interface Chain {
  readonly params: NetworkParams;
  readonly engine: GhostdagEngine;
  readonly genesis: IndexedBlock;
  /** Validates and stores a block. Throws BlockRuleError when a rule is broken; nothing is stored then. */
  addBlock(block: Block): Promise<AddBlockResult>;
  has(id: BlockId): boolean;
  /** A block this node refused by a consensus rule (remembered across restarts): never worth downloading again. */
  isInvalid(id: BlockId): boolean;
  get(id: BlockId): IndexedBlock | undefined;
  getBlock(id: BlockId): Block | undefined;
  ghostdag(id: BlockId): GhostdagData;
  selectedTip(): IndexedBlock;
  tips(): IndexedBlock[];
  /** The block at `height` on the virtual selected chain. */
  blockAtHeight(height: number): IndexedBlock | undefined;
  blockCount(): number;
  orphanCount(): number;
  /** The bits and the earliest timestamp a child of `selectedParent` must carry. */
  childRules(selectedParent: IndexedBlock): { bits: number; minTimestampMs: number };
  /** The virtual block's parents (the best tips, selected tip first) and its GHOSTDAG data (computed with unit work). */
  virtualParents(): { parents: BlockId[]; ghostdag: GhostdagData };
  /** A block's mergeset in consensus order (selected parent first), from its GHOSTDAG data. */
  orderedMergeset(data: GhostdagData): BlockId[];
  /** The state a block with these parents, mined by `miner`, commits to (null miner: the virtual view). */
  childState(parents: readonly BlockId[], miner: Uint8Array | null): ChildState;
  onBlockAccepted(listener: (event: BlockAcceptedEvent) => void): () => void;
  /**
   * A block passed every rule and its batch is queued, before it is durable (onBlockAccepted follows once it is):
   * what a peer may be told of at once. Readers see it already (the store reads queued writes); a kill -9 before the
   * commit loses it here, not on the network. Called synchronously, in the order blocks are added.
   */
  onBlockValidated(listener: (event: BlockValidatedEvent) => void): () => void;
  /** A security event: a heavier chain that leaves the finality point was refused (the node raises an alert). */
  onFinalityConflict(listener: (event: FinalityConflictEvent) => void): () => void;
  /** The virtual's finality point: the selected chain block finalityDepth blue score below the selected tip. */
  finalityPoint(): IndexedBlock;
  /** Resolves when every accepted block so far is durable. */
  settled(): Promise<void>;
  /** Each per-block cache's size and hit counts (/metrics). */
  cacheStats(): ReadCacheStats[];
  /** Blocks replayed at open: 0 unless the store predates the consensus tables (docs/storage.md "Upgrading"). */
  readonly replayedAtOpen: number;
  /** The pruning point and the pruner's progress; undefined on an archive (docs/storage.md "Pruning"). */
  pruning(): PrunerStatus | undefined;
  /** Whether a known block is below the pruning point: its body, transactions and state are gone or going. */
  isPruned(id: BlockId): boolean;
  /** Resolves when no pruning round is running or owed (tests, benches). */
  pruningSettled(): Promise<void>;
  /** Stops pruning after the batch in flight (shutdown: the next open finishes the round). */
  stopPruning(): Promise<void>;
  /** The pruning point this chain joined at from trusted data; undefined for a chain from genesis. */
  readonly joinedAt: IndexedBlock | undefined;
  /** The state machine's record of a block beside its state root, for trusted data (trusted-data.ts). */
  pruningPointRecord(id: BlockId): Uint8Array | undefined;
}

export interface ChainOptions {
  readonly params: NetworkParams;
  readonly store: KvStore;
  readonly clock: Clock;
  readonly orphanCapacity?: number;
  /**
   * Verifies transaction proofs at body validation, synchronously: a Schnorr verifier (BIP340 batched through it,
   * other schemes inline) or a witness verifier. Default the @noble reference (the node passes a faster one).
   */
  readonly verifier?: SignatureVerifier | WitnessVerifier;
  /**
   * Runs after a block's cheap admission checks (header in isolation, PoW, parents known) and before its stages:
   * the node verifies the body's signatures on its worker pool here, into the verification cache the synchronous
   * `verifier` reads (src/chain/preverify-body.ts). Must not throw for a bad block: the stages refuse it.
   */
  readonly preverify?: (block: Block) => Promise<void>;
  /** Each accepted block's time in every stage (metrics, slow-block log lines); called once it is durable. */
  readonly onBlockTimings?: (timings: BlockTimings) => void;
  /**
   * Computes each block's state (src/state/ledger.ts through the port in state-port.ts). Without one the chain
   * is header-and-body only: every state root must equal genesis's (the empty state), as in DAG-only tests.
   */
  readonly stateMachine?: ChainStateMachineFactory;
  /** Megabytes the per-block caches may hold (`--cache-mb`); default cacheMbDefault (src/limits.ts). */
  readonly cacheMb?: number;
  /** Keep everything (`--archive`); default false: prune below the pruning point (docs/storage.md "Pruning"). */
  readonly archive?: boolean;
  /** Each finished pruning round, and the error that stops the pruner. */
  readonly onPruning?: (event: PruningEvent) => void;
  /**
   * Start at a pruning point instead of genesis (docs/pruning-proof.md "Trusted data"): an empty store (or one a
   * crash left half-joined) gets these blocks, checked first (TrustedDataError); the point's state must already be
   * in the store. A store that joined before opens with or without them.
   */
  readonly join?: TrustedData;
  /** The verified pruning-point proof's headers, kept as header rows beside a join (version 2 networks). */
  readonly joinProofHeaders?: readonly BlockHeader[];
}

/** Where an accepted block's processing time went, in milliseconds (performance.now). */
export interface BlockTimings {
  readonly id: BlockId;
  readonly transactions: number;
  /** The proofs on the verify pool before the stages (0 without a preverify hook). */
  readonly preverifyMs: number;
  /** Body in isolation: sizes, decoding, mass, merkle root, proofs (cache hits after a preverify). */
  readonly bodyMs: number;
  /** Header in context: parents, GHOSTDAG, difficulty, timestamps, commitments. */
  readonly headerMs: number;
  /** Body in context: the mergeset's acceptance and the state root. */
  readonly acceptanceMs: number;
  /** The batch assembled and written (LMDB commit). */
  readonly commitMs: number;
  readonly totalMs: number;
}

/** Built once by openChain, after the stored DAG is replayed; `store` is the chain's read-your-writes view. */
export type ChainStateMachineFactory = (context: {
  readonly chain: Chain;
  readonly store: KvStore;
  /** True unless the node is an archive: the machine logs what each block writes so that pruning can find it. */
  readonly pruning: boolean;
}) => ChainStateMachine;

/** A finished round, or the error that stopped the pruner (the node logs both; it keeps running unpruned then). */
export type PruningEvent =
  | { readonly type: 'round'; readonly from: IndexedBlock; readonly to: IndexedBlock; readonly blocks: number; readonly ms: number }
  | { readonly type: 'error'; readonly error: unknown };

export interface PrunerStatus {
  readonly pruningPoint: IndexedBlock;
  readonly prunedThrough: IndexedBlock;
  readonly rounds: number;
  readonly running: boolean;
}

export interface TrustedBlock {
  readonly header: BlockHeader;
  /** Selected-chain height (genesis 0): the DAA window and the chain index count in heights. */
  readonly height: number;
  /** As the sender stores it; ids may name blocks below T. */
  readonly ghostdag: TrustedGhostdagData;
  /** The pruning point's and its anticone's transactions; absent below P (only headers are needed there). */
  readonly transactions?: Block['transactions'];
}

export interface TrustedData {
  /** The pruning point's hash (its header's stateRoot is the state imported beside it). */
  readonly pruningPoint: Uint8Array;
  /** T in ascending (blue work, hash): a topological order. */
  readonly blocks: readonly TrustedBlock[];
  /** The state machine's record of P beside its state root (the ledger's acceptance record: running totals). */
  readonly stateRecord?: Uint8Array;
}
