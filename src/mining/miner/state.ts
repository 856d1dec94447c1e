/**
 * The state of one mining loop (src/mining/miner.ts): its resolved dependencies, its counters, and the template
 * inputs' version that invalidate() bumps. The loops are free functions over it (batch-loop.ts,
 * continuous-loop.ts), started and stopped by lifecycle.ts.
 */
import type { Block } from '../../codec/block.ts';
import type { Chain } from '../../chain/chain.ts';
import type { Clock } from '../../util/clock.ts';
import type { PowBackend } from '../job.ts';
import type { BlockTemplate, TemplateRequest } from '../template.ts';

export interface MinerDeps {
  readonly chain: Chain;
  readonly backend: PowBackend;
  readonly clock: Clock;
  /** 33-byte binary miner address. */
  readonly miner: Uint8Array;
  readonly submit: (block: Block) => Promise<unknown>;
  readonly randomNonce: () => bigint;
  readonly batchMs: number;
  readonly templateRefreshMs: number;
  /** A template whose only change is the mempool is rebuilt at most this often (miner.ts). */
  readonly mempoolRefreshMs: number;
  readonly onError: ((error: unknown) => void) | undefined;
  readonly build: (request: Pick<TemplateRequest, 'miner' | 'gpuMining' | 'nowMs'>) => BlockTemplate;
}

export interface MinerState extends MinerDeps {
  running: boolean;
  /** The running loop; resolves when it has left its current batch or job. */
  loop: Promise<void>;
  hashes: number;
  blocksFound: number;
  startedAtMs: number | null;
  /** The batch-driven loop's next batch size, adapted to take ~batchMs. */
  batchNonces: number;
  /** Bumped by invalidate(): a template built at an older version is stale. */
  inputsVersion: number;
  templateBuiltAtMs: number | null;
  templatesBuilt: number;
  templatesDropped: number;
  lastYieldMs: number;
  /** Ends the continuous loop's current sleep early; null while it is not sleeping. */
  wake: (() => void) | null;
}

export function createMinerState(deps: MinerDeps): MinerState {
  return {
    ...deps,
    running: false, loop: Promise.resolve(), hashes: 0, blocksFound: 0, startedAtMs: null, batchNonces: 4_096,
    inputsVersion: 0, templateBuiltAtMs: null, templatesBuilt: 0, templatesDropped: 0, lastYieldMs: 0, wake: null,
  };
}

/** The template to grind on, built now for this loop's miner address and backend. */
export function buildTemplate(st: MinerState, nowMs: number): BlockTemplate {
  return st.build({ miner: st.miner, gpuMining: st.backend.gpu, nowMs });
}

/** Reports a loop error and waits a little, so a persistent fault does not spin. */
export async function pauseAfterError(st: MinerState, error: unknown): Promise<void> {
  st.onError?.(error);
  await new Promise((resolve) => setTimeout(resolve, 250));
}
