/** Starting and stopping a mining loop (src/mining/miner.ts), and its counters. */
import { runBatchLoop } from './batch-loop.ts';
import { runContinuousLoop, wakeLoop } from './continuous-loop.ts';
import type { MinerState } from './state.ts';

export function startMiner(st: MinerState): void {
  if (st.running) return;
  st.running = true;
  st.startedAtMs = st.clock.nowMs();
  const pow = st.backend.continuous;
  st.loop = pow !== undefined ? runContinuousLoop(st, pow) : runBatchLoop(st);
}

/** Resolves when the loop has left its current batch (or its sleep). */
export async function stopMiner(st: MinerState): Promise<void> {
  st.running = false;
  wakeLoop(st);
  await st.loop;
  st.startedAtMs = null;
  st.templateBuiltAtMs = null;
}

/** The loop's counters (miner.ts's MinerStats). */
export function minerStats(st: MinerState) {
  const { running, backend, hashes, blocksFound, startedAtMs, templateBuiltAtMs, templatesBuilt, templatesDropped } = st;
  return { running, backend: backend.name, gpu: backend.gpu, hashes, blocksFound, startedAtMs, templateBuiltAtMs, templatesBuilt, templatesDropped };
}
