/**
 * The mining loop, the same in the node and in a tab: build a template, hand nonce batches to a PoW backend, and
 * submit a block when one wins. A template is dropped as stale when the chain has moved (the DAG tips may differ),
 * when `invalidate()` says its other inputs changed (the node calls it when the mempool changes), or when it is
 * older than `templateRefreshMs`. Batches are sized from the measured rate to take ~`batchMs`, so stale work is
 * abandoned within about one batch. docs/mining.md.
 *
 * A backend with a `continuous` port (the Wasm worker pool) is not driven in batches: the loop pushes each new
 * template to it and the threads hash it until the next one, so a main thread busy with blocks, RPC or the mempool
 * never leaves them idle (issue 29: the batch-driven pool idled ~70% of the time at 300 tx/s). The loop wakes
 * on a winner, on invalidate(), and every `batchMs` to check staleness.
 *
 * A template whose only change is the mempool is rebuilt at most once per `mempoolRefreshMs` (both loops), as
 * Kaspa's mining manager keeps a block template for a while rather than rebuild it per transaction: under load the
 * pool changes with every admission, and a full template (thousands of transactions selected, their merkle root)
 * rebuilt every 100 ms cost a producing node ~0.9 core at 400 tx/s (issue 29). A new block still rebuilds at once.
 *
 * The loop's state is miner/state.ts; the two loops are miner/batch-loop.ts and miner/continuous-loop.ts, started
 * and stopped by miner/lifecycle.ts; this file wires them into a `Miner`.
 */
import type { Block } from '../codec/block.ts';
import type { Chain } from '../chain/chain.ts';
import type { Clock } from '../util/clock.ts';
import type { PowBackend } from './job.ts';
import { minerStats, startMiner, stopMiner } from './miner/lifecycle.ts';
import { createMinerState } from './miner/state.ts';
import { buildBlockTemplate, type BlockTemplate } from './template.ts';

/** How often, at most, a template is rebuilt for mempool changes alone (new blocks rebuild it at once). */
const minerMempoolRefreshMs = 500;

/** What the loop asks a template builder for; the node's builder adds mempool transactions and the state root. */
interface MinerTemplateRequest {
  readonly miner: Uint8Array;
  readonly gpuMining: boolean;
  readonly nowMs: number;
}

export interface MinerOptions {
  readonly chain: Chain;
  readonly backend: PowBackend;
  readonly clock: Clock;
  /** 33-byte binary miner address. */
  readonly miner: Uint8Array;
  /** Where found blocks go (the node's block intake). */
  readonly submit: (block: Block) => Promise<unknown>;
  /** Random u64 start nonces, so that miners on the same template search different ranges. */
  readonly randomNonce: () => bigint;
  readonly batchMs?: number;
  readonly templateRefreshMs?: number;
  /** Default minerMempoolRefreshMs. */
  readonly mempoolRefreshMs?: number;
  readonly onError?: (error: unknown) => void;
  /** Builds the template to grind on; default: buildBlockTemplate over the chain alone (no transactions). */
  readonly buildTemplate?: (request: MinerTemplateRequest) => BlockTemplate;
}

export interface MinerStats {
  readonly running: boolean;
  readonly backend: string;
  readonly gpu: boolean;
  readonly hashes: number;
  readonly blocksFound: number;
  readonly startedAtMs: number | null;
  /** When the template being ground was built (template age = now − this); null when none is. */
  readonly templateBuiltAtMs: number | null;
  readonly templatesBuilt: number;
  /** Templates abandoned before a win because the chain or the template inputs changed, or they aged out. */
  readonly templatesDropped: number;
}

export interface Miner {
  start(): void;
  /** Resolves when the loop has left its current batch. */
  stop(): Promise<void>;
  stats(): MinerStats;
  /** The template inputs changed (e.g. the mempool): drop the current work after its batch and rebuild. */
  invalidate(): void;
}

export function createMiner(options: MinerOptions): Miner {
  const { chain } = options;
  const st = createMinerState({
    chain,
    backend: options.backend,
    clock: options.clock,
    miner: options.miner,
    submit: options.submit,
    randomNonce: options.randomNonce,
    batchMs: options.batchMs ?? 100,
    templateRefreshMs: options.templateRefreshMs ?? 1_000,
    mempoolRefreshMs: options.mempoolRefreshMs ?? minerMempoolRefreshMs,
    onError: options.onError,
    build: options.buildTemplate ?? ((request) => buildBlockTemplate(chain, request)),
  });
  return {
    start: () => startMiner(st),
    stop: () => stopMiner(st),
    stats: () => minerStats(st),
    invalidate() {
      st.inputsVersion++;
    },
  };
}
