// The join guard's poison check, alone (src/p2p/join-guard.ts): a check that could not be made — the reporter's
// trusted data timed out under load, or another request to it was in flight — is asked again on a later refusal of
// the suspected block's descendants (the block itself is remembered as invalid, so its state-root refusal never comes
// again). On CI a single failed check left a poisoned node refusing the honest chain for good.
import { describe, expect, it } from 'vitest';
import type { Chain } from '../../../src/chain/chain.ts';
import { BlockRuleError } from '../../../src/chain/errors.ts';
import { regtestParams } from '../../../src/consensus/params.ts';
import { createJoinGuard, type RejoinVerdict } from '../../../src/p2p/join-guard.ts';
import { silentLogger } from '../../../src/p2p/logger.ts';
import type { P2pNode } from '../../../src/p2p/p2p-node.ts';
import { encodeAcceptanceRecord, zeroTotals } from '../../../src/state/acceptance-record.ts';

const point = { id: 'aa'.repeat(32) };
const ours = encodeAcceptanceRecord({ ...zeroTotals, emitted: 10n ** 18n, merged: [] });
const honest = encodeAcceptanceRecord({ ...zeroTotals, emitted: 5_000n, merged: [] });
const liar = 'ee'.repeat(32);
const reporter = 'bb'.repeat(32);

/** A chain just joined at `point` (its tip is the point), holding the record the liar served. */
const joinedChain = { params: regtestParams, joinedAt: point, selectedTip: () => point, pruningPointRecord: () => ours } as unknown as Chain;

function guardWith(answers: (() => Promise<Uint8Array>)[], clock: { now: number }) {
  const verdicts: RejoinVerdict[] = [];
  const asked: string[] = [];
  const node = {
    fetchTrustedData: async (peer: string) => {
      asked.push(peer);
      return { stateRecord: await answers.shift()!() };
    },
    disconnectPeer: () => undefined,
  } as unknown as P2pNode;
  const guard = createJoinGuard({ chain: joinedChain, joinedFrom: liar, node: () => node, nowMs: () => clock.now, log: silentLogger, onRejoin: (v) => verdicts.push(v) });
  return { guard, verdicts, asked };
}

const stateRootMismatch = () => new BlockRuleError('body.state-root.mismatch', 'state root differs');
const parentInvalid = () => new BlockRuleError('context.parents.invalid', 'a parent is a block that failed validation');

describe('the join guard', () => {
  it('asks again after a poison check that could not be made, and then names the liar', async () => {
    const clock = { now: 1_000 };
    const { guard, verdicts, asked } = guardWith([() => Promise.reject(new Error('getdata timed out')), async () => honest], clock);
    expect(guard.blockRefused(reporter, stateRootMismatch())).toBe(true);
    await guard.idle();
    expect(verdicts).toEqual([]);
    // The block's descendants keep coming (each sync round): spared, and once the retry interval has passed, asked again.
    expect(guard.blockRefused(reporter, parentInvalid())).toBe(true);
    expect(asked).toHaveLength(1);
    clock.now += 2_000;
    expect(guard.blockRefused(reporter, parentInvalid())).toBe(true);
    await guard.idle();
    expect(asked).toEqual([reporter, reporter]);
    expect(verdicts).toEqual([{ reason: 'poisoned', servedBy: liar, reportedBy: reporter }]);
  });

  it('does not ask again while a check is in flight, nor for refusals that were never suspected', async () => {
    const clock = { now: 0 };
    let release: (record: Uint8Array) => void = () => undefined;
    const { guard, asked } = guardWith([() => new Promise((resolve) => (release = resolve))], clock);
    expect(guard.blockRefused(reporter, parentInvalid())).toBe(false);
    expect(guard.blockRefused(liar, stateRootMismatch())).toBe(false);
    expect(guard.blockRefused(reporter, stateRootMismatch())).toBe(true);
    clock.now += 10_000;
    expect(guard.blockRefused(reporter, parentInvalid())).toBe(true);
    expect(asked).toEqual([reporter]);
    release(honest);
    await guard.idle();
  });
});
