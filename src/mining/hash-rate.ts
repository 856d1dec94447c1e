/**
 * Hash-rate figures, always labelled with how they were obtained (issue #6): `measured` from this node's own
 * counters of hashes actually computed, or `estimated` for the network from difficulty (work) and block times in
 * chain data. A measured figure never stands in for the network, and an estimate never for the local miners.
 * The network's estimate is network-hash-rate.ts (it reads the chain; this file is also the browser miner's meter).
 */
import type { HashRate, HashRateSource } from './control.ts';
import { hashRateSamplesMax, hashRateWindowMs } from './mining-limits.ts';

const units = ['H/s', 'kH/s', 'MH/s', 'GH/s', 'TH/s', 'PH/s', 'EH/s'] as const;

/** A human-readable rate with its unit, as the seed's `hash_rate` string: "12.35 MH/s". */
export function formatHashRate(hashesPerSecond: number): string {
  if (!Number.isFinite(hashesPerSecond) || hashesPerSecond <= 0) return '0 H/s';
  let value = hashesPerSecond;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${unit === 0 ? Math.round(value) : value.toFixed(2)} ${units[unit]}`;
}

/** The JSON view of a labelled rate (docs/mining.md "Hash-rate figures"). */
export interface HashRateView {
  readonly hashes_per_second: number;
  readonly display: string;
  readonly source: HashRateSource;
  readonly window_seconds: number;
}

export function hashRateView(rate: HashRate, windowMs: number): HashRateView {
  const hps = Math.round(rate.hashesPerSecond);
  return { hashes_per_second: hps, display: formatHashRate(hps), source: rate.source, window_seconds: Math.round(windowMs / 1000) };
}

export interface HashRateMeter {
  /** Records the cumulative hash count at a moment (counts never go down while a meter lives). */
  observe(nowMs: number, totalHashes: number): void;
  /** Mean rate over the trailing window ending at the latest observation; 0 before two observations. */
  rate(): HashRate;
  /** Hashes observed since the meter was created. */
  totalHashes(): number;
}

/** A trailing-window meter over cumulative counters, e.g. a Wasm pool's `hashesDone()` sampled once a second. */
export function createHashRateMeter(windowMs: number = hashRateWindowMs): HashRateMeter {
  const samples: { atMs: number; total: number }[] = [];
  let first: number | null = null;
  return {
    observe(nowMs, totalHashes) {
      first ??= totalHashes;
      samples.push({ atMs: nowMs, total: totalHashes });
      // Keep one sample at or before the window start so the window is always fully covered once it can be.
      while (samples.length > 2 && (samples.length > hashRateSamplesMax || samples[1]!.atMs <= nowMs - windowMs)) samples.shift();
    },
    rate() {
      const last = samples.at(-1);
      const firstSample = samples[0];
      if (last === undefined || firstSample === undefined || last.atMs <= firstSample.atMs) return { hashesPerSecond: 0, source: 'measured' };
      return { hashesPerSecond: ((last.total - firstSample.total) * 1000) / (last.atMs - firstSample.atMs), source: 'measured' };
    },
    totalHashes: () => (samples.length === 0 || first === null ? 0 : samples.at(-1)!.total - first),
  };
}
