/**
 * Opening a chain at a pruning point from trusted data (docs/pruning-proof.md "Trusted data"). The blocks go into the
 * engine under a virtual origin with the GHOSTDAG data they came with, then into the store as ordinary rows — the
 * consensus tables, headers, the bodies of the pruning point and its anticone, skip and chain-index rows — so a
 * restart opens the joined chain like any other, replaying nothing. The pruning point is the selected tip, the only
 * tip, and the pruning point of the pruner.
 *
 * Crash safety: the first batch carries a `joining` row; the `joined-at` row goes last, with the state machine's
 * rows (chain.ts). A store with `joining` and no `joined-at` is half-imported: opened with the trusted data again it
 * is wiped and imported from scratch (the state trie imported beside it stays); opened without, it is refused.
 */
import { encodeBlock } from '../codec/block.ts';
import { encodeHeader, type BlockHeader } from '../codec/header.ts';
import { consensusKeys } from '../consensus/consensus-rows.ts';
import type { BlockId, GhostdagEngine } from '../consensus/ghostdag.ts';
import type { NetworkParams } from '../consensus/params.ts';
import { blockHash } from '../consensus/pow.ts';
import type { WitnessVerifier } from '../crypto/witness-check.ts';
import type { KvOp, KvStore } from '../storage/kv.ts';
import { equalBytes, toHex } from '../util/bytes.ts';
import type { IndexedBlock } from './block-index.ts';
import { chainIndexPut, chainKeys, tipsRow } from './chain-store.ts';
import { BlockRuleError } from './errors.ts';
import type { StoredBlockIndex } from './stored-block-index.ts';
import { checkAroundPoint, checkTrustedData } from './trusted-check.ts';
import type { TrustedData } from './trusted-data.ts';
import { TrustedDataError } from './trusted-errors.ts';

export interface JoinPlan {
  /** The pruning point the chain joined at (or is joining at now); undefined for a chain from genesis. */
  readonly joinedAt: BlockId | undefined;
  /** The trusted data must be imported now (an empty or half-imported store). */
  readonly importNow: boolean;
}

const metaRows = [
  consensusKeys.blockCount,
  consensusKeys.tip,
  consensusKeys.reindexRoot,
  chainKeys.selectedTip,
  chainKeys.tips,
  chainKeys.pruningPoint,
  chainKeys.prunedThrough,
  chainKeys.pruneProgress,
  chainKeys.joining,
];
// O, S, D, N (consensus-rows.ts) and H, B, K, C (chain-store.ts).
const importedTables = [0x4f, 0x53, 0x44, 0x4e, 0x48, 0x42, 0x4b, 0x43];

/** Deletes what a half-done import wrote, the state trie aside. */
async function wipeHalfImport(store: KvStore): Promise<void> {
  // Keys first, deletes after: no write while a range is being read. A half import is one trusted set's rows.
  const keys = importedTables.flatMap((table) => [...store.entries({ prefix: Uint8Array.of(table) })].map(([key]) => key.slice()));
  for (let at = 0; at < keys.length; at += 10_000) {
    await store.write(keys.slice(at, at + 10_000).map((key): KvOp => ({ type: 'del', key })));
  }
  // The `joining` row goes last: until then the store still reads as half-imported.
  await store.write(metaRows.map((key): KvOp => ({ type: 'del', key })));
}

/** Before the consensus store opens: what the store holds and whether `trusted` is to be imported into it. */
export async function prepareJoin(store: KvStore, trusted: TrustedData | undefined): Promise<JoinPlan> {
  const joined = store.get(chainKeys.joinedAt);
  if (joined !== undefined) {
    if (trusted && !equalBytes(joined, trusted.pruningPoint)) {
      throw new TrustedDataError('import-state', `the store joined at ${toHex(joined)}, not at ${toHex(trusted.pruningPoint)}`);
    }
    return { joinedAt: toHex(joined), importNow: false };
  }
  const begun = store.get(chainKeys.joining) !== undefined;
  if (trusted === undefined) {
    if (begun) throw new TrustedDataError('import-state', 'the store holds a trusted-data import that did not finish: open it with the trusted data to start over');
    return { joinedAt: undefined, importNow: false };
  }
  if (begun) await wipeHalfImport(store);
  else if (store.get(consensusKeys.blockCount) !== undefined || store.get(chainKeys.selectedTip) !== undefined) {
    throw new TrustedDataError('import-state', 'the store already holds a chain; a join needs an empty store');
  }
  return { joinedAt: toHex(trusted.pruningPoint), importNow: true };
}

export interface TrustedImportContext {
  readonly params: NetworkParams;
  /** The chain's read-your-writes view. */
  readonly store: KvStore;
  /** Opened on the (empty) store: the import adds the origin and the trusted blocks. */
  readonly engine: GhostdagEngine;
  readonly index: StoredBlockIndex;
  readonly tips: Map<BlockId, Uint8Array>;
  readonly nowMs: number;
  readonly verifier: WitnessVerifier;
}

/**
 * Checks `trusted` (TrustedDataError, nothing written) and writes its rows; the caller writes `joinedOps` last.
 * Answers the blocks whose bodies it stored (the point and its anticone).
 */
export async function importTrustedData(ctx: TrustedImportContext, trusted: TrustedData, proofHeaders: readonly BlockHeader[] = []): Promise<BlockId[]> {
  const { params, store, engine, index, tips } = ctx;
  const data = checkTrustedData(params, trusted, trusted.pruningPoint, ctx.nowMs, ctx.verifier);
  engine.addTrustedOrigin();
  try {
    for (const { id, block, work } of data.blocks) engine.addTrustedBlock(id, block.header.parents.map(toHex), work, block.ghostdag, block.height);
  } catch (error) {
    // Mergesets that contradict the DAG the headers form trip the reachability index's invariants.
    throw new TrustedDataError('ghostdag-inconsistent', `the GHOSTDAG data does not fit the blocks' DAG: ${(error as Error).message}`);
  }
  checkAroundPoint(params, engine, data);
  const point = data.point;
  const first: KvOp[] = [{ type: 'put', key: chainKeys.joining, value: point.hash }, ...engine.drainWrites()];
  const written = new Set<BlockId>();
  for (const { id, hash, block } of data.blocks) {
    written.add(id);
    first.push({ type: 'put', key: chainKeys.header(hash), value: encodeHeader(block.header) });
    if (block.transactions) first.push({ type: 'put', key: chainKeys.block(hash), value: encodeBlock({ header: block.header, transactions: block.transactions }) });
  }
  // The verified proof's headers below the trusted blocks stay as header rows only: the level parents of the blocks
  // above reach them at high levels (level-parents.ts), and this node's own proofs are built from them.
  for (const header of proofHeaders) {
    const hash = blockHash(header);
    const id = toHex(hash);
    if (written.has(id)) continue;
    written.add(id);
    first.push({ type: 'put', key: chainKeys.header(hash), value: encodeHeader(header) });
  }
  await store.write(first);
  const second: KvOp[] = [];
  for (const { id, hash, block } of data.blocks) second.push(...index.add(id, hash, block.header).ops);
  for (let walk: IndexedBlock | null = index.get(point.id)!; walk; walk = walk.selectedParent) second.push(chainIndexPut(walk.height, walk.hash));
  tips.clear();
  tips.set(point.id, point.hash);
  engine.setSelectedTip(point.id);
  second.push(
    tipsRow(tips.values()),
    { type: 'put', key: chainKeys.selectedTip, value: point.hash },
    { type: 'put', key: chainKeys.pruningPoint, value: point.hash },
    { type: 'put', key: chainKeys.prunedThrough, value: point.hash },
    ...engine.drainWrites(),
  );
  await store.write(second);
  return data.blocks.filter((b) => b.block.transactions !== undefined).map((b) => b.id);
}

/** The last batch of a join: the state machine's rows for the pruning point, then the marker. */
export function joinedOps(point: IndexedBlock, stateOps: readonly KvOp[]): KvOp[] {
  return [...stateOps, { type: 'put', key: chainKeys.joinedAt, value: point.hash }, { type: 'del', key: chainKeys.joining }];
}

/**
 * A joined chain validates only blocks whose selected chain runs through its pruning point: below it, it has no
 * state to start from and only a truncated past (Kaspa refuses blocks outside the pruning point's future likewise).
 */
export function checkAboveJoin(engine: GhostdagEngine, joinedAt: BlockId, parentIds: readonly BlockId[]): void {
  let sp = parentIds[0]!;
  for (const p of parentIds) if (engine.compareBlocks(p, sp) > 0) sp = p;
  if (sp === joinedAt || engine.isChainAncestorOf(joinedAt, sp)) return;
  throw new BlockRuleError('context.pruning-point.violated', `its selected parent ${sp} is not above the pruning point ${joinedAt} this chain joined at`);
}
