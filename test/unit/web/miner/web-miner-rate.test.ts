// The miner page's rate (web/miner/tab-rate.ts): sampled once a second while batches end less often, it shows the
// rate the tab hashes at, never 0 H/s between batches while mining; 0 once stopped; a new run starts afresh.
import { describe, expect, it } from 'vitest';
import { createTabRate } from '../../../../web/miner/tab-rate.ts';

describe('createTabRate', () => {
  it('shows the mining rate at every tick between batches that end every 2.5 s', () => {
    const rate = createTabRate();
    const batch = 2_500_000; // hashes per batch: 1 MH/s
    const shown: number[] = [];
    for (let s = 0; s <= 30; s++) {
      const total = Math.floor((s * 1000) / 2500) * batch;
      shown.push(rate.sample(s * 1000, total, true));
    }
    const steady = shown.slice(3);
    for (const r of steady) expect(r).toBeGreaterThan(0);
    // Over the 10 s window the mean is the true rate within one batch's worth.
    for (const r of shown.slice(12)) expect(Math.abs(r - 1_000_000)).toBeLessThanOrEqual(batch / 10);
  });

  it('shows 0 once stopped, and a new run is not diluted by the stopped time', () => {
    const rate = createTabRate();
    for (let s = 0; s <= 10; s++) rate.sample(s * 1000, s * 1000, true);
    expect(rate.sample(11_000, 11_000, false)).toBe(0);
    rate.sample(60_000, 11_000, true);
    expect(rate.sample(61_000, 12_000, true)).toBe(1000);
  });
});
