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
 * on a winner, on invalidate(), and every `batchMs` to check staleness; a template whose only change is the
 * mempool is rebuilt at most once per `batchMs`, as the batch loop did.
 */
import type { Block } from '../codec/block.ts';
import type { Chain } from '../chain/chain.ts';
import type { Clock } from '../util/clock.ts';
import type { ContinuousPow, PowBackend, PowFound } from './job.ts';
import { buildBlockTemplate, type BlockTemplate } from './template.ts';

/** What the loop asks a template builder for; the node's builder adds mempool transactions and the state root. */
export interface MinerTemplateRequest {
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

const batchNoncesMin = 256;
const batchNoncesMax = 1 << 26;
/**
 * A backend that answers on the microtask queue (the JS reference) would starve timers and I/O; the loop yields a
 * macrotask at least this often. Worker and GPU backends answer through macrotasks anyway, so this costs them
 * one ~1 ms timer per interval at most (≤ 0.5%).
 */
const loopYieldIntervalMs = 200;
const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

export function createMiner(options: MinerOptions): Miner {
  const { chain, backend, clock } = options;
  const batchMs = options.batchMs ?? 100;
  const refreshMs = options.templateRefreshMs ?? 1_000;
  let running = false;
  let loop: Promise<void> = Promise.resolve();
  let hashes = 0;
  let blocksFound = 0;
  let startedAtMs: number | null = null;
  let batchNonces = 4_096;
  let inputsVersion = 0;
  let templateBuiltAtMs: number | null = null;
  let templatesBuilt = 0;
  let templatesDropped = 0;
  let lastYieldMs = 0;
  const build = options.buildTemplate ?? ((request: MinerTemplateRequest) => buildBlockTemplate(chain, request));

  const stale = (template: BlockTemplate, builtAtMs: number, version: number): boolean =>
    chain.blockCount() !== template.chainVersion || version !== inputsVersion || clock.nowMs() - builtAtMs >= refreshMs;

  const mineOneTemplate = async (): Promise<void> => {
    const builtAtMs = clock.nowMs();
    const version = inputsVersion;
    const template = build({ miner: options.miner, gpuMining: backend.gpu, nowMs: builtAtMs });
    templateBuiltAtMs = builtAtMs;
    templatesBuilt++;
    let nonce = options.randomNonce();
    while (running && !stale(template, builtAtMs, version)) {
      if (clock.nowMs() - lastYieldMs >= loopYieldIntervalMs) {
        await yieldToEventLoop();
        lastYieldMs = clock.nowMs();
        if (!running || stale(template, builtAtMs, version)) break;
      }
      const began = clock.nowMs();
      const result = await backend.search({ prePowHash: template.prePowHash, target: template.target, nonceStart: nonce, nonceCount: batchNonces });
      hashes += result.hashes;
      const tookMs = Math.max(1, clock.nowMs() - began);
      batchNonces = Math.min(batchNoncesMax, Math.max(batchNoncesMin, Math.round((batchNonces * batchMs) / tookMs)));
      if (result.nonce !== null) {
        blocksFound++;
        await options.submit({ header: { ...template.header, nonce: result.nonce }, transactions: template.transactions });
        return;
      }
      nonce = (nonce + BigInt(result.hashes)) & 0xffff_ffff_ffff_ffffn;
    }
    if (running) templatesDropped++;
  };

  let wake: (() => void) | null = null;
  const wakeLoop = (): void => {
    const w = wake;
    wake = null;
    w?.();
  };
  const sleepUntilWoken = (ms: number): Promise<void> => new Promise((resolve) => {
    const timer = setTimeout(() => { wake = null; resolve(); }, ms);
    wake = () => { clearTimeout(timer); resolve(); };
  });

  /** The continuous loop: one template at a time pushed to the backend's threads; winners submitted as they come. */
  const runContinuous = async (pow: ContinuousPow): Promise<void> => {
    const found: PowFound[] = [];
    const unsubscribe = pow.onFound((f) => { found.push(f); wakeLoop(); });
    const hashBase = pow.hashesDone() - hashes;
    let current: { template: BlockTemplate; builtAtMs: number; version: number; jobId: number } | null = null;
    const needsRebuild = (c: NonNullable<typeof current>): boolean => {
      const age = clock.nowMs() - c.builtAtMs;
      return chain.blockCount() !== c.template.chainVersion || age >= refreshMs || (c.version !== inputsVersion && age >= batchMs);
    };
    try {
      while (running) {
        try {
          if (current !== null && needsRebuild(current)) {
            templatesDropped++;
            current = null;
          }
          if (current === null) {
            const builtAtMs = clock.nowMs();
            const version = inputsVersion;
            const template = build({ miner: options.miner, gpuMining: backend.gpu, nowMs: builtAtMs });
            const jobId = pow.setJob({ prePowHash: template.prePowHash, target: template.target, nonceStart: options.randomNonce() });
            current = { template, builtAtMs, version, jobId };
            templateBuiltAtMs = builtAtMs;
            templatesBuilt++;
          }
          if (found.length === 0) await sleepUntilWoken(batchMs);
          hashes = pow.hashesDone() - hashBase;
          const win = found.splice(0).find((f) => f.jobId === current?.jobId);
          if (win !== undefined && running) {
            const { template } = current;
            current = null; // whatever happens to this block, the next template starts from the chain it leaves
            blocksFound++;
            await options.submit({ header: { ...template.header, nonce: win.nonce }, transactions: template.transactions });
          }
        } catch (error) {
          current = null;
          options.onError?.(error);
          await new Promise((resolve) => setTimeout(resolve, 250));
        }
      }
    } finally {
      pow.pause();
      unsubscribe();
      hashes = pow.hashesDone() - hashBase;
    }
  };

  const run = async (): Promise<void> => {
    if (backend.continuous !== undefined) return runContinuous(backend.continuous);
    while (running) {
      try {
        await mineOneTemplate();
      } catch (error) {
        options.onError?.(error);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }
  };

  return {
    start() {
      if (running) return;
      running = true;
      startedAtMs = clock.nowMs();
      loop = run();
    },
    async stop() {
      running = false;
      wakeLoop();
      await loop;
      startedAtMs = null;
      templateBuiltAtMs = null;
    },
    stats: () => ({ running, backend: backend.name, gpu: backend.gpu, hashes, blocksFound, startedAtMs, templateBuiltAtMs, templatesBuilt, templatesDropped }),
    invalidate() {
      inputsVersion++;
    },
  };
}
