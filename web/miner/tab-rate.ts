/**
 * The miner page's hash rate: a trailing-window mean over the tab's cumulative hash count (src/mining/hash-rate.ts),
 * sampled once a second. A backend adds its hashes only when a batch ends — a WebGPU batch of 2^20 nonces or a
 * Wasm round can take longer than a second, and the tab waits out the template gap after its own block — so the
 * old per-second difference read 0 H/s for most seconds while mining. Over a window of several batches it does not.
 */
import { createHashRateMeter } from '../../src/mining/hash-rate.ts';

/** Long enough to span several of the slowest batches, short enough to follow a change of backend. */
const tabRateWindowMs = 10_000;

export interface TabRate {
  /** Samples the cumulative count at a tick; returns the rate to show (0 when not mining). */
  sample(nowMs: number, totalHashes: number, running: boolean): number;
}

export function createTabRate(windowMs: number = tabRateWindowMs): TabRate {
  let meter = createHashRateMeter(windowMs);
  let wasRunning = false;
  return {
    sample(nowMs, totalHashes, running) {
      if (!running) {
        wasRunning = false;
        return 0;
      }
      // A new run starts a new window: the stopped time must not dilute it.
      if (!wasRunning) meter = createHashRateMeter(windowMs);
      wasRunning = true;
      meter.observe(nowMs, totalHashes);
      return meter.rate().hashesPerSecond;
    },
  };
}
