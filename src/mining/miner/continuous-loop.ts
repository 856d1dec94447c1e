/**
 * The continuous loop (src/mining/miner.ts) for a backend with a `continuous` port (the Wasm worker pool): one
 * template at a time pushed to the backend's threads, which hash it until the next one; winners submitted as they
 * come. The loop wakes on a winner, on invalidate() and every batchMs to check staleness; a template whose only
 * change is the mempool is rebuilt at most once per mempoolRefreshMs.
 */
import type { ContinuousPow, PowFound } from '../job.ts';
import type { BlockTemplate } from '../template.ts';
import { buildTemplate, pauseAfterError, type MinerState } from './state.ts';

interface CurrentJob {
  readonly template: BlockTemplate;
  readonly builtAtMs: number;
  readonly version: number;
  readonly jobId: number;
}

/** Ends the loop's sleep now (a winner came, invalidate() or stop() was called). */
export function wakeLoop(st: MinerState): void {
  const w = st.wake;
  st.wake = null;
  w?.();
}

function sleepUntilWoken(st: MinerState, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => { st.wake = null; resolve(); }, ms);
    st.wake = () => { clearTimeout(timer); resolve(); };
  });
}

function needsRebuild(st: MinerState, c: CurrentJob): boolean {
  const age = st.clock.nowMs() - c.builtAtMs;
  return st.chain.blockCount() !== c.template.chainVersion || age >= st.templateRefreshMs || (c.version !== st.inputsVersion && age >= st.mempoolRefreshMs);
}

/** Builds a template and makes it the threads' job. */
function pushTemplate(st: MinerState, pow: ContinuousPow): CurrentJob {
  const builtAtMs = st.clock.nowMs();
  const version = st.inputsVersion;
  const template = buildTemplate(st, builtAtMs);
  const jobId = pow.setJob({ prePowHash: template.prePowHash, target: template.target, nonceStart: st.randomNonce() });
  st.templateBuiltAtMs = builtAtMs;
  st.templatesBuilt++;
  return { template, builtAtMs, version, jobId };
}

export async function runContinuousLoop(st: MinerState, pow: ContinuousPow): Promise<void> {
  const found: PowFound[] = [];
  const unsubscribe = pow.onFound((f) => { found.push(f); wakeLoop(st); });
  const hashBase = pow.hashesDone() - st.hashes;
  let current: CurrentJob | null = null;
  try {
    while (st.running) {
      try {
        if (current !== null && needsRebuild(st, current)) {
          st.templatesDropped++;
          current = null;
        }
        current ??= pushTemplate(st, pow);
        if (found.length === 0) await sleepUntilWoken(st, st.batchMs);
        st.hashes = pow.hashesDone() - hashBase;
        const win = found.splice(0).find((f) => f.jobId === current?.jobId);
        if (win !== undefined && st.running) {
          const { template } = current;
          current = null; // whatever happens to this block, the next template starts from the chain it leaves
          st.blocksFound++;
          await st.submit({ header: { ...template.header, nonce: win.nonce }, transactions: template.transactions });
        }
      } catch (error) {
        current = null;
        await pauseAfterError(st, error);
      }
    }
  } finally {
    pow.pause();
    unsubscribe();
    st.hashes = pow.hashesDone() - hashBase;
  }
}
