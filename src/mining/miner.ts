/**
 * The mining loop, the same in the node and in a tab: build a template, hand nonce batches to a PoW backend, and
 * submit a block when one wins. A template is rebuilt when the chain has moved or it is older than
 * `templateRefreshMs`, so stale work is dropped. Batches are sized from the measured rate to take ~`batchMs`.
 */
import type { Block } from '../codec/block.ts';
import type { Chain } from '../chain/chain.ts';
import type { Clock } from '../util/clock.ts';
import type { PowBackend } from './job.ts';
import { buildBlockTemplate, type BlockTemplate } from './template.ts';

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
}

export interface MinerStats {
  readonly running: boolean;
  readonly backend: string;
  readonly gpu: boolean;
  readonly hashes: number;
  readonly blocksFound: number;
  readonly startedAtMs: number | null;
}

export interface Miner {
  start(): void;
  /** Resolves when the loop has left its current batch. */
  stop(): Promise<void>;
  stats(): MinerStats;
}

const batchNoncesMin = 256;
const batchNoncesMax = 1 << 26;

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

  const stale = (template: BlockTemplate, builtAtMs: number): boolean =>
    chain.blockCount() !== template.chainVersion || clock.nowMs() - builtAtMs >= refreshMs;

  const mineOneTemplate = async (): Promise<void> => {
    const builtAtMs = clock.nowMs();
    const template = buildBlockTemplate(chain, { miner: options.miner, gpuMining: backend.gpu, nowMs: builtAtMs });
    let nonce = options.randomNonce();
    while (running && !stale(template, builtAtMs)) {
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
  };

  const run = async (): Promise<void> => {
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
      await loop;
      startedAtMs = null;
    },
    stats: () => ({ running, backend: backend.name, gpu: backend.gpu, hashes, blocksFound, startedAtMs }),
  };
}
