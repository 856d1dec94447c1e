// Waiting for a proof's header (web/light/proof-wait.ts): an unknown header is waited for with the same answer —
// refetching would name the node's newer tip each time and never catch up — a stale proof is fetched again, and
// any other failure, or the wait running out, is reported without a value.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LightProofError, type LightProofReason } from '../../../../src/light/errors.ts';
import { checkWhenHeaderKnown } from '../../../../web/light/proof-wait.ts';

/** A verifier that fails with `reasons` in turn, then passes with the answer it was given. */
function failing(reasons: LightProofReason[]) {
  const seen: number[] = [];
  const verify = (answer: number) => {
    seen.push(answer);
    const reason = reasons.shift();
    if (reason !== undefined) throw new LightProofError(reason, `${reason} for answer ${answer}`);
    return answer;
  };
  return { verify, seen };
}

describe('checkWhenHeaderKnown', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  const counter = () => {
    let fetched = 0;
    return { fetch: async () => ++fetched, fetched: () => fetched };
  };

  it('re-verifies the same answer while its header is unknown, fetching once', async () => {
    const node = counter();
    const { verify, seen } = failing(['header-unknown', 'header-unknown', 'header-unknown']);
    const outcome = checkWhenHeaderKnown(node.fetch, verify);
    await vi.advanceTimersByTimeAsync(1_000);
    await expect(outcome).resolves.toEqual({ ok: true, value: 1 });
    expect(node.fetched()).toBe(1);
    expect(seen).toEqual([1, 1, 1, 1]);
  });

  it('fetches a new answer when the proof is stale', async () => {
    const node = counter();
    const { verify, seen } = failing(['proof-stale', 'header-unknown']);
    const outcome = checkWhenHeaderKnown(node.fetch, verify);
    await vi.advanceTimersByTimeAsync(1_000);
    await expect(outcome).resolves.toEqual({ ok: true, value: 2 });
    expect(seen).toEqual([1, 2, 2]);
  });

  it('reports any other failure at once, and an unknown header once the wait is over', async () => {
    const forged = checkWhenHeaderKnown(async () => 1, failing(['root-mismatch']).verify);
    await expect(forged).resolves.toMatchObject({ ok: false, error: { reason: 'root-mismatch' } });

    const unreachable = checkWhenHeaderKnown(async () => { throw new Error('socket closed'); }, (n: number) => n);
    await expect(unreachable).resolves.toEqual({ ok: false, error: { reason: 'request-failed', message: 'socket closed' } });

    const never = checkWhenHeaderKnown(async () => 1, failing(Array<LightProofReason>(1_000).fill('header-unknown')).verify);
    await vi.advanceTimersByTimeAsync(6_000);
    await expect(never).resolves.toMatchObject({ ok: false, error: { reason: 'header-unknown', message: 'header-unknown for answer 1' } });
  });
});
