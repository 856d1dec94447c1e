/**
 * The main thread's side of continuous mining (server/mining/wasm-pool.ts): each worker has its own job port;
 * a new job goes to every worker, thread t starting at nonceStart + t·2^64/threads so the threads never overlap.
 */
import type { MessagePort } from 'node:worker_threads';
import type { ContinuousPow, PowFound } from '../../../src/mining/job.ts';
import type { PoolFoundMessage, PoolMineMessage } from './messages.ts';

const u64Max = (1n << 64n) - 1n;

export interface ContinuousSide {
  readonly port: Omit<ContinuousPow, 'hashesDone'>;
  active(): boolean;
}

/** The main thread's side of continuous mining over the workers' job ports. */
export function createContinuous(ports: readonly MessagePort[], threads: number): ContinuousSide {
  const listeners = new Set<(found: PowFound) => void>();
  const stride = (1n << 64n) / BigInt(threads);
  let nextJobId = 1;
  let active = false;
  for (const p of ports) {
    p.on('message', (message: PoolFoundMessage) => {
      for (const listener of listeners) listener({ jobId: message.jobId, nonce: message.nonce });
    });
    // An idle pool must not keep the process alive on its job ports (the workers' own handles decide that).
    p.unref();
  }
  return {
    active: () => active,
    port: {
      setJob(job) {
        const jobId = nextJobId++;
        active = true;
        ports.forEach((p, t) => {
          const nonceStart = (job.nonceStart + BigInt(t) * stride) & u64Max;
          p.postMessage({ type: 'mine', jobId, prePowHash: job.prePowHash, target: job.target, nonceStart } satisfies PoolMineMessage);
        });
        return jobId;
      },
      pause() {
        if (!active) return;
        active = false;
        for (const p of ports) p.postMessage({ type: 'pause' } satisfies PoolMineMessage);
      },
      onFound(listener) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    },
  };
}
