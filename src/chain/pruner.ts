/**
 * The background pruner of a full node (docs/storage.md "Pruning"). The pruning point moves with the selected tip
 * (pruning-point.ts), its row written in the batch of the block that moved it; then a round deletes what fell below:
 *
 *   1. the state's garbage (trie nodes no kept state reads), from the state machine, in bounded batches;
 *   2. per selected-chain block C in (from, to], ascending: the bodies of C's mergeset (the blocks that fall below
 *      the point with it) and the state machine's rows of C and of those blocks, with the progress height;
 *   3. the header phase (header-pruning.ts): the headers and consensus rows that fell out of the keep set (what
 *      trusted data, the pruning proof and the rules of the blocks above the point still read stays);
 *   4. the `pruned-through` row.
 *
 * Every batch is atomic and the progress rows say where a round stands, so a kill -9 at any moment leaves a store that opens and finishes the round. A batch holds at most pruneBatchOpsMax deletes and the pruner
 * yields to the event loop between batches: block processing never waits longer than one batch.
 */
import type { BlockId, GhostdagEngine } from '../consensus/ghostdag.ts';
import { readU64be, u64be } from '../consensus/consensus-rows.ts';
import type { ConsensusStore } from '../consensus/consensus-store.ts';
import type { NetworkParams } from '../consensus/params.ts';
import { assert } from '../errors.ts';
import { pruneBatchOpsMax } from '../limits.ts';
import type { KvOp, KvStore } from '../storage/kv.ts';
import { toHex } from '../util/bytes.ts';
import type { IndexedBlock } from './block-index.ts';
import { chainKeys } from './chain-store.ts';
import { createHeaderPruning } from './header-pruning.ts';
import { nextPruningPoint } from './pruning-point.ts';
import type { PrunerStatus, PruningEvent } from './chain-types.ts';
import type { ChainStateMachine, PruningRound } from './state-port.ts';

export type { PrunerStatus,  } from './chain-types.ts';

export interface PrunerContext {
  readonly params: NetworkParams;
  /** The chain's read-your-writes view: batches written here queue behind block batches. */
  readonly store: KvStore;
  readonly engine: GhostdagEngine;
  /** The engine's rows, for the header phase (header-pruning.ts). */
  readonly consensus: ConsensusStore;
  /** Drops a block whose rows the header phase deleted from the block index's cache. */
  readonly forgetBlock: (id: BlockId) => void;
  readonly selectedTip: () => IndexedBlock;
  readonly get: (id: BlockId) => IndexedBlock | undefined;
  /** The virtual selected chain at a height (stable below the finality point, where every round works). */
  readonly chainAt: (height: number) => IndexedBlock | undefined;
  readonly genesis: IndexedBlock;
  readonly machine: () => ChainStateMachine | undefined;
  readonly onEvent: (event: PruningEvent) => void;
}

export interface Pruner {
  point(): IndexedBlock;
  /** Rows for the batch of a block that made `tip` the selected tip: the pruning point's, when it moved. */
  tipMoved(tip: IndexedBlock): KvOp[];
  /** Starts the rounds owed, in the background (after the batch that moved the point is durable). */
  kick(): void;
  /** Whether a block is below the pruning point (its body and rows are gone or going). Genesis never is. */
  isPruned(id: BlockId): boolean;
  /** Resolves when no round is running or owed. */
  idle(): Promise<void>;
  /** Stops after the batch in flight (shutdown); a later open finishes the round. */
  stop(): Promise<void>;
  status(): PrunerStatus;
}

const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

export function openPruner(ctx: PrunerContext): Pruner {
  const { store, engine, genesis } = ctx;
  const stored = (key: Uint8Array): IndexedBlock => {
    const hash = store.get(key);
    if (hash === undefined) return genesis;
    const block = ctx.get(toHex(hash));
    assert(block !== undefined, `the store's pruning row names an unknown block ${toHex(hash)}`);
    return block;
  };
  let point = stored(chainKeys.pruningPoint);
  let prunedThrough = stored(chainKeys.prunedThrough);
  let rounds = 0;
  let running: Promise<void> | undefined;
  let stopped = false;
  const headers = createHeaderPruning({
    params: ctx.params,
    store,
    engine,
    consensus: ctx.consensus,
    get: ctx.get,
    chainAt: ctx.chainAt,
    selectedTip: ctx.selectedTip,
    genesis,
    forget: (block, id) => {
      ctx.consensus.forget(block, id);
      ctx.forgetBlock(id);
    },
  });

  const mergesetOf = (chainBlock: IndexedBlock): IndexedBlock[] => {
    const data = engine.get(chainBlock.id)!;
    return [...data.mergesetBlues, ...data.mergesetReds].filter((id) => id !== genesis.id).map((id) => ctx.get(id)!);
  };

  const roundOf = (from: IndexedBlock, to: IndexedBlock): PruningRound => ({
    from,
    to,
    isPruned: (id) => {
      if (id === genesis.id) return false;
      // A block the engine no longer holds went with an earlier round's header phase.
      if (!engine.has(id)) return true;
      return (id === from.id || engine.isDagAncestorOf(id, to.id)) && !engine.isDagAncestorOf(id, from.id);
    },
    *pruned() {
      for (let h = from.height + 1; h <= to.height; h++) yield* mergesetOf(ctx.chainAt(h)!);
    },
  });

  const write = (ops: KvOp[]): Promise<void> => store.write(ops);

  const round = async (from: IndexedBlock, to: IndexedBlock): Promise<void> => {
    const began = Date.now();
    const machine = ctx.machine();
    const progressRow = store.get(chainKeys.pruneProgress);
    let done = progressRow === undefined ? undefined : readU64be(progressRow);
    if (done === undefined) {
      for (const ops of machine?.pruneState(roundOf(from, to)) ?? []) {
        if (stopped) return;
        if (ops.length > 0) await write(ops);
        await yieldToEventLoop();
      }
      done = from.height;
      await write([{ type: 'put', key: chainKeys.pruneProgress, value: u64be(done) }]);
    }
    let ops: KvOp[] = [];
    let blocks = 0;
    for (let h = done + 1; h <= to.height; h++) {
      if (stopped) return;
      const chainBlock = ctx.chainAt(h)!;
      const merged = mergesetOf(chainBlock);
      for (const block of merged) ops.push({ type: 'del', key: chainKeys.block(block.hash) });
      blocks += merged.length;
      if (machine) ops.push(...machine.pruneRows(chainBlock, merged));
      if (ops.length >= pruneBatchOpsMax || h === to.height) {
        ops.push({ type: 'put', key: chainKeys.pruneProgress, value: u64be(h) });
        await write(ops);
        ops = [];
        await yieldToEventLoop();
      }
    }
    const headerRows = await headers.run(to, from, () => stopped);
    if (headerRows === undefined) return;
    await write([
      ...headerRows.ops,
      { type: 'put', key: chainKeys.prunedThrough, value: to.hash },
      { type: 'del', key: chainKeys.pruneProgress },
    ]);
    headerRows.written();
    prunedThrough = to;
    rounds++;
    ctx.onEvent({ type: 'round', from, to, blocks, ms: Date.now() - began });
  };

  const run = async (): Promise<void> => {
    try {
      while (!stopped && prunedThrough.id !== point.id) await round(prunedThrough, point);
    } catch (error) {
      stopped = true;
      ctx.onEvent({ type: 'error', error });
    }
  };

  return {
    point: () => point,
    tipMoved(tip) {
      const next = nextPruningPoint(ctx.params, tip, point);
      if (next === point) return [];
      point = next;
      return [{ type: 'put', key: chainKeys.pruningPoint, value: next.hash }];
    },
    kick() {
      if (running !== undefined || stopped || prunedThrough.id === point.id) return;
      // Cleared in a later microtask, never before it is set (run() may end without awaiting anything).
      const current: Promise<void> = run().finally(() => {
        if (running === current) running = undefined;
      });
      running = current;
    },
    isPruned: (id) => id !== genesis.id && engine.has(id) && engine.isDagAncestorOf(id, point.id),
    async idle() {
      while (running !== undefined) await running;
    },
    async stop() {
      stopped = true;
      while (running !== undefined) await running;
    },
    status: () => ({ pruningPoint: point, prunedThrough, rounds, running: running !== undefined }),
  };
}
