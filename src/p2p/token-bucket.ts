/**
 * A token bucket on the injected clock: `burst` tokens, one more every `refillMs`. Per-peer allowances for
 * harmless anomalies, addr entries and unsolicited orphans (Bitcoin Core's addr token bucket idea). The arithmetic is
 * the shared one of src/util/token-bucket.ts, with one unit a millisecond (a token is `refillMs` units).
 */
import type { Clock } from '../util/clock.ts';
import { refillBucket, takeFromBucket, type BucketState } from '../util/token-bucket.ts';

export interface TokenBucket {
  /** Takes `n` tokens if there are that many; false (and nothing taken) otherwise. */
  take(n?: number): boolean;
  available(): number;
}

export function createTokenBucket(clock: Clock, burst: number, refillMs: number): TokenBucket {
  const fullUnits = burst * refillMs;
  const bucket: BucketState = { units: fullUnits, atMs: clock.nowMs() };
  return {
    take(n = 1) {
      refillBucket(bucket, clock.nowMs(), fullUnits, 1);
      return takeFromBucket(bucket, n * refillMs);
    },
    available() {
      refillBucket(bucket, clock.nowMs(), fullUnits, 1);
      return Math.floor(bucket.units / refillMs);
    },
  };
}
