import { describe, expect, it } from 'vitest';
import { daaWindow, nextBits, pastMedianTime, type DaaParams, type DaaPoint } from '../../../src/consensus/difficulty.ts';
import { devnetParams, mainnetParams } from '../../../src/consensus/params.ts';
import { compactToTarget, targetToCompact, workFromTarget } from '../../../src/consensus/pow.ts';
import { AssertionError } from '../../../src/errors.ts';
import { mulberry32 } from '../../consensus-dags.ts';


const windowBlocks = 200;
const params: DaaParams = { targetBlockTimeMs: 1000, daaWindowBlocks: windowBlocks, daaStepFactorMax: 4, maxTarget: (1n << 255n) - 1n };

interface Phase {
  /** Hashes per millisecond. */
  readonly hashrate: number;
  readonly blocks: number;
}

/**
 * A linear chain mined on a virtual clock: each block's solve time is exponential with mean work / hashrate, and
 * its bits come from nextBits over the window daaWindow picks. In a chain, daaScore = blueScore = height and blue
 * work adds each parent's work, as GHOSTDAG gives for a DAG without forks.
 */
function simulate(genesisBits: number, phases: readonly Phase[], seed: number): { chain: DaaPoint[]; intervals: number[] } {
  const rng = mulberry32(seed);
  // Genesis is stamped long before the network starts: the DAA must never look at its timestamp.
  const chain: DaaPoint[] = [{ timestampMs: -1e12, daaScore: 0, blueScore: 0, blueWork: 0n, bits: genesisBits }];
  const intervals: number[] = [];
  let now = 0;
  for (const phase of phases) {
    for (let i = 0; i < phase.blocks; i++) {
      const height = chain.length - 1; // the selected parent's height
      const sp = chain[height]!;
      const w = daaWindow(params, height);
      const bits = nextBits(params, sp, chain[w.startHeight]!, w.windowBlocks);
      const meanMs = Number(workFromTarget(compactToTarget(bits))) / phase.hashrate;
      const solveMs = -Math.log(1 - rng()) * meanMs;
      now += solveMs;
      intervals.push(solveMs);
      chain.push({
        timestampMs: Math.round(now),
        daaScore: height + 1,
        blueScore: height + 1,
        blueWork: sp.blueWork + workFromTarget(compactToTarget(sp.bits)),
        bits,
      });
    }
  }
  return { chain, intervals };
}

const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
/** Mean block interval (s) over blocks [from, to) of the simulation, counted from the first mined block. */
const rate = (intervals: readonly number[], from: number, to: number): number => mean(intervals.slice(from, to)) / 1000;

const hashrate = 131; // hashes/ms: work 2^17 per block at 1 block/s
const bitsAtOneSecond = targetToCompact((1n << 239n) - 1n);
const seeds = [1, 2, 3];

describe('DAA simulation (linear chain, virtual clock, seeded rng)', () => {
  it.each(seeds)('steady hash rate stays near one block a second (seed %i)', (seed) => {
    const { intervals } = simulate(bitsAtOneSecond, [{ hashrate, blocks: 6 * windowBlocks }], seed);
    expect(rate(intervals, windowBlocks, 6 * windowBlocks)).toBeGreaterThan(0.9);
    expect(rate(intervals, windowBlocks, 6 * windowBlocks)).toBeLessThan(1.1);
  });

  it.each(seeds)('recovers within about one window after the hash rate goes ×10 then ÷10 (seed %i)', (seed) => {
    const n = windowBlocks;
    const phases = [
      { hashrate, blocks: 3 * n },
      { hashrate: hashrate * 10, blocks: 3 * n },
      { hashrate, blocks: 3 * n },
    ];
    const { intervals } = simulate(bitsAtOneSecond, phases, seed);
    // Right after each step the rate is off by about 10×; one window later it is back near 1 s.
    expect(rate(intervals, 3 * n, 3 * n + 20)).toBeLessThan(0.3);
    expect(rate(intervals, 6 * n, 6 * n + 20)).toBeGreaterThan(3);
    for (const start of [3 * n, 6 * n]) {
      const r = rate(intervals, start + Math.round(1.2 * n), start + 3 * n);
      expect(r).toBeGreaterThan(0.8);
      expect(r).toBeLessThan(1.25);
    }
  });

  it.each(seeds)('recovers within about one window after the hash rate drops ÷10 (seed %i)', (seed) => {
    const n = windowBlocks;
    const phases = [
      { hashrate, blocks: 2 * n },
      { hashrate: hashrate / 10, blocks: 3 * n },
    ];
    const { intervals } = simulate(bitsAtOneSecond, phases, seed);
    expect(rate(intervals, 2 * n, 2 * n + 20)).toBeGreaterThan(3);
    const r = rate(intervals, 2 * n + Math.round(1.2 * n), 5 * n);
    expect(r).toBeGreaterThan(0.8);
    expect(r).toBeLessThan(1.25);
  });

  it.each(seeds)('a genesis 100× too easy converges within about one window (seed %i)', (seed) => {
    const easy = targetToCompact(compactToTarget(bitsAtOneSecond) * 100n);
    const { intervals, chain } = simulate(easy, [{ hashrate, blocks: 4 * windowBlocks }], seed);
    const r = rate(intervals, Math.round(1.2 * windowBlocks), 4 * windowBlocks);
    expect(r).toBeGreaterThan(0.8);
    expect(r).toBeLessThan(1.25);
    // The ×4 step clamp holds on every block (up to the compact encoding's rounding down, < 2^-15).
    for (let i = 2; i < chain.length; i++) {
      const ratio = Number(compactToTarget(chain[i]!.bits)) / Number(compactToTarget(chain[i - 1]!.bits));
      expect(ratio).toBeGreaterThanOrEqual(0.25 * (1 - 2 ** -15));
      expect(ratio).toBeLessThanOrEqual(4);
    }
  });
});

describe('nextBits rules', () => {
  const genesis: DaaPoint = { timestampMs: 0, daaScore: 0, blueScore: 0, blueWork: 0n, bits: bitsAtOneSecond };
  const point = (height: number, timestampMs: number, bits = bitsAtOneSecond): DaaPoint => ({
    timestampMs,
    daaScore: height,
    blueScore: height,
    blueWork: BigInt(height) << 17n,
    bits,
  });

  it('children of genesis and of its chain child copy the selected parent bits', () => {
    expect(daaWindow(params, 0)).toEqual({ startHeight: 0, windowBlocks: 0 });
    expect(daaWindow(params, 1)).toEqual({ startHeight: 1, windowBlocks: 0 });
    expect(nextBits(params, genesis, genesis, 0)).toBe(bitsAtOneSecond);
    const first = point(1, 5000, 0x1e00ffff);
    expect(nextBits(params, first, first, 0)).toBe(0x1e00ffff);
  });

  it('uses the window that exists, never starting at genesis, up to daaWindowBlocks', () => {
    expect(daaWindow(params, 2)).toEqual({ startHeight: 1, windowBlocks: 1 });
    expect(daaWindow(params, 150)).toEqual({ startHeight: 1, windowBlocks: 149 });
    expect(daaWindow(params, 201)).toEqual({ startHeight: 1, windowBlocks: 200 });
    expect(daaWindow(params, 1000)).toEqual({ startHeight: 800, windowBlocks: 200 });
  });

  it('refuses a window that starts at genesis', () => {
    expect(() => nextBits(params, point(5, 5000), genesis, 5)).toThrow(AssertionError);
  });

  it('keeps the target when blocks came exactly on time', () => {
    expect(nextBits(params, point(101, 100_000), point(1, 0), 100)).toBe(targetToCompact((1n << 239n) - 1n));
  });

  it('doubles the target when blocks came twice as slowly, halves it when twice as fast', () => {
    const slow = compactToTarget(nextBits(params, point(101, 200_000), point(1, 0), 100));
    const fast = compactToTarget(nextBits(params, point(101, 50_000), point(1, 0), 100));
    expect(Number(slow) / 2 ** 239).toBeCloseTo(2, 3);
    expect(Number(fast) / 2 ** 239).toBeCloseTo(0.5, 3);
  });

  it('counts red blocks through the DAA score: twice the blocks in the same time doubles the work', () => {
    const end = { ...point(101, 100_000), daaScore: 201 };
    const target = compactToTarget(nextBits(params, end, point(1, 0), 100));
    expect(Number(target) / 2 ** 239).toBeCloseTo(0.5, 3);
  });

  it('clamps each step to ×4 either way and never exceeds maxTarget', () => {
    const veryFast = compactToTarget(nextBits(params, point(101, 1), point(1, 0), 100));
    expect(veryFast).toBe(compactToTarget(targetToCompact(compactToTarget(bitsAtOneSecond) / 4n)));
    const verySlow = compactToTarget(nextBits(params, point(101, 10_000_000), point(1, 0), 100));
    expect(verySlow).toBe(compactToTarget(targetToCompact(compactToTarget(bitsAtOneSecond) * 4n)));
    const easiest = targetToCompact(params.maxTarget);
    const atLimit = { ...point(101, 10_000_000, easiest), blueWork: 200n };
    expect(compactToTarget(nextBits(params, atLimit, { ...point(1, 0), blueWork: 0n }, 100))).toBeLessThanOrEqual(params.maxTarget);
  });

  it('a timestamp going backwards counts as 1 ms, not as a negative span', () => {
    const bits = nextBits(params, point(101, -5000), point(1, 0), 100);
    expect(bits).toBe(targetToCompact(compactToTarget(bitsAtOneSecond) / 4n));
  });

  it('works with the real network params', () => {
    for (const p of [mainnetParams, devnetParams]) {
      const g = p.genesis;
      const s = { timestampMs: 1000 * 51, daaScore: 51, blueScore: 51, blueWork: 51n * workFromTarget(compactToTarget(g.bits)), bits: g.bits };
      const a = { timestampMs: 1000, daaScore: 1, blueScore: 1, blueWork: 1n * workFromTarget(compactToTarget(g.bits)), bits: g.bits };
      const next = compactToTarget(nextBits(p, s, a, 50));
      expect(Number(next) / Number(compactToTarget(g.bits))).toBeCloseTo(1, 3);
    }
  });
});

describe('pastMedianTime', () => {
  it('is the median, the upper middle for an even count', () => {
    expect(pastMedianTime([5, 1, 3])).toBe(3);
    expect(pastMedianTime([4, 1, 3, 2])).toBe(3);
    expect(pastMedianTime([7])).toBe(7);
    expect(() => pastMedianTime([])).toThrow(AssertionError);
  });
});
