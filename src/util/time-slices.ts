/**
 * Long synchronous work cut into slices of wall time with the event loop turning between them. In a browser tab the
 * main thread must not hold one task much past 50 ms (a long task: input waits, and Lighthouse counts the excess as
 * total blocking time, issue 32); a count of items per slice cannot promise that, since an item's cost varies with
 * the device and the load. The clock is read after every item, so a slice ends at most one item past its budget.
 */
import type { Clock } from './clock.ts';

export interface TimeSliceOptions {
  readonly clock: Clock;
  /** How the event loop is let turn: a zero-delay timer (the tab's is a message-channel turn, unclamped). */
  readonly timer: { setTimeout(callback: () => void, delayMs: number): unknown };
  /** Wall time one slice may take before it yields. */
  readonly sliceMsMax: number;
}

/** Runs `work` on each item in order; what `work` throws ends it (items before it stay done). */
export async function forEachInTimeSlices<T>(items: readonly T[], work: (item: T) => void, options: TimeSliceOptions): Promise<void> {
  const { clock, timer, sliceMsMax } = options;
  let sliceBegan = clock.nowMs();
  for (const item of items) {
    if (clock.nowMs() - sliceBegan >= sliceMsMax) {
      await new Promise<void>((resolve) => void timer.setTimeout(resolve, 0));
      sliceBegan = clock.nowMs();
    }
    work(item);
  }
}
