/** The hash-counter sampler of the mining control: it feeds the engines' meters and the statistics' measured hashes. */
import type { HashRate } from '../../../src/mining/control.ts';
import type { MiningControlState } from './state.ts';

/** Reads every engine's hash counter (the backend's own when it keeps one, else the miner loop's). */
export function sampleEngines(state: MiningControlState): void {
  if (state.session === null) return;
  const now = state.clock.nowMs();
  for (const engine of state.session.engines) {
    const pool = engine.backend as Partial<{ hashesDone(): number }>;
    const total = typeof pool.hashesDone === 'function' ? pool.hashesDone() : engine.miner.stats().hashes;
    engine.meter.observe(now, total);
    state.statsIndex.addLocalHashes(now, total - engine.lastTotal, engine.kind === 'gpu');
    engine.lastTotal = total;
  }
}

/** This node's measured rate: the sum over the running engines, sampled now. */
export function localHashRate(state: MiningControlState): HashRate {
  sampleEngines(state);
  const hps = (state.session?.engines ?? []).reduce((sum, e) => sum + e.meter.rate().hashesPerSecond, 0);
  return { hashesPerSecond: hps, source: 'measured' };
}
