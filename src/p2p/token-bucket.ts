/**
 * A token bucket on the injected clock: `burst` tokens, one more every `refillMs`. Per-peer allowances for
 * harmless anomalies, addr entries and unsolicited orphans (Bitcoin Core's addr token bucket idea).
 */
import type { Clock } from '../util/clock.ts';

export interface TokenBucket {
  /** Takes `n` tokens if there are that many; false (and nothing taken) otherwise. */
  take(n?: number): boolean;
  available(): number;
}

export function createTokenBucket(clock: Clock, burst: number, refillMs: number): TokenBucket {
  let tokens = burst;
  let updatedMs = clock.nowMs();
  const refill = (): void => {
    const now = clock.nowMs();
    if (now <= updatedMs) return;
    tokens = Math.min(burst, tokens + (now - updatedMs) / refillMs);
    updatedMs = now;
  };
  return {
    take(n = 1) {
      refill();
      if (tokens < n) return false;
      tokens -= n;
      return true;
    },
    available() {
      refill();
      return Math.floor(tokens);
    },
  };
}
