// Work cut into slices of wall time (src/util/time-slices.ts): with a clock the work itself moves, each slice ends
// within one item of its budget, the event loop turns between slices (a timer runs), and every item runs in order.
import { expect, it } from 'vitest';
import { createManualClock } from '../../../src/util/clock.ts';
import { forEachInTimeSlices } from '../../../src/util/time-slices.ts';

function run(costsMs: readonly number[], sliceMsMax: number) {
  const clock = createManualClock(1_000);
  let turns = 0;
  const timer = { setTimeout: (callback: () => void) => void setTimeout(() => (turns++, callback()), 0) };
  const done: { item: number; turns: number }[] = [];
  const finished = forEachInTimeSlices(costsMs.map((_, i) => i), (item) => {
    done.push({ item, turns });
    clock.advance(costsMs[item]!);
  }, { clock, timer, sliceMsMax });
  return { finished, done, clock };
}

it('yields once a slice has used its budget, never more than one item past it', async () => {
  const costs = [3, 3, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 20, 2, 2];
  const { finished, done, clock } = run(costs, 8);
  await finished;
  expect(done.map((d) => d.item)).toEqual(costs.map((_, i) => i));
  // Items run between the same two turns form one slice: its time is under budget plus its last item.
  const slices = new Map<number, typeof done>();
  for (const d of done) slices.set(d.turns, [...(slices.get(d.turns) ?? []), d]);
  expect(slices.size).toBeGreaterThan(3);
  for (const slice of slices.values()) {
    const spent = slice.reduce((sum, d) => sum + costs[d.item]!, 0);
    expect(spent - costs[slice.at(-1)!.item]!).toBeLessThan(8);
  }
  expect(clock.nowMs()).toBe(1_000 + costs.reduce((a, b) => a + b, 0));
});

it('does not yield while the work stays within one budget', async () => {
  const { finished, done } = run([1, 1, 1, 1], 8);
  await finished;
  expect(new Set(done.map((d) => d.turns))).toEqual(new Set([0]));
});

it('stops at the item that throws, the ones before it done', async () => {
  const clock = createManualClock(0);
  const seen: number[] = [];
  const work = (item: number): void => {
    if (item === 3) throw new RangeError('bad item');
    seen.push(item);
    clock.advance(5);
  };
  await expect(forEachInTimeSlices([0, 1, 2, 3, 4], work, { clock, timer: { setTimeout: (cb: () => void) => setTimeout(cb, 0) }, sliceMsMax: 8 })).rejects.toThrow('bad item');
  expect(seen).toEqual([0, 1, 2]);
});
