/** The clock port: core code asks it for the time instead of reading the wall clock (deterministic tests). */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  nowMs(): number;
}

export const systemClock: Clock = { nowMs: () => Date.now() };

/** A clock the caller moves by hand: simulations and tests. */
export function createManualClock(startMs: number): Clock & { set(ms: number): void; advance(ms: number): void } {
  let now = startMs;
  return {
    nowMs: () => now,
    set: (ms) => {
      now = ms;
    },
    advance: (ms) => {
      now += ms;
    },
  };
}
