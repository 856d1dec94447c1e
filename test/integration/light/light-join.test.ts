// A tab joins at a pruning point (docs/web.md "Joining at a pruning point"): it verifies the node's proof, checks the
// trusted data of the proven point, and verifies every header above it with the full node's header stages — on a
// version 2 chain several pruning windows long; refusals carry the rule that failed and leave the store untouched.
import { beforeAll, describe, expect, it } from 'vitest';
import type { BlockHeader } from '../../../src/codec/header.ts';
import { encodeAddress } from '../../../src/crypto/address.ts';
import { unitsToCoins } from '../../../src/crypto/amount.ts';
import { blockHash } from '../../../src/consensus/pow.ts';
import { LightSyncError } from '../../../src/light/errors.ts';
import { openLightChain } from '../../../src/light/light-chain.ts';
import { checkJoin } from '../../../src/light/light-join.ts';
import { verifyAccountProof } from '../../../src/light/verify-account.ts';
import { proofToJson } from '../../../src/state/proof.ts';
import { createMemoryHeaderStore } from '../../../src/light/light-store.ts';
import { toHash0x, toHex } from '../../../src/util/bytes.ts';
import { grind } from '../../helpers/chain-fixtures.ts';
import { extendTabChain, headersAbove, proofAt, tabClock, tabParams, tipPruningPoint, trustedAt, type TabSource } from '../../helpers/light-join-fixtures.ts';

let source: TabSource;
let point: string;
let above: BlockHeader[];

beforeAll(async () => {
  source = await extendTabChain(400);
  point = tipPruningPoint(source.chain);
  above = headersAbove(source, point);
}, 120_000);

const openTab = (store = createMemoryHeaderStore()) => openLightChain({ params: tabParams, store, clock: tabClock() });
const freshJoin = () => checkJoin(tabParams, proofAt(source.chain, point), trustedAt(source.chain, point), tabClock().nowMs());
const refusal = (run: () => unknown): LightSyncError => {
  try {
    run();
  } catch (error) {
    if (error instanceof LightSyncError) return error;
    throw error;
  }
  throw new Error('expected a LightSyncError');
};
const regrind = (header: BlockHeader): BlockHeader => ({ ...header, nonce: grind(header) });

describe('joining at a pruning point', () => {
  it('verifies the proof and the trusted data, then every header above the point, and reaches the node’s tip', async () => {
    expect(source.chain.get(point)!.header.blueScore).toBeGreaterThan(8 * (tabParams.pruningDepth + tabParams.finalityDepth));
    const store = createMemoryHeaderStore();
    const tab = await openTab(store);
    await tab.join(freshJoin());
    expect(tab.joinedAt()?.id).toBe(point);
    expect(tab.selectedTip().id).toBe(point);
    const fresh = above.filter((h) => !tab.has(toHex(blockHash(h))));
    expect(tab.addHeaders(fresh)).toBe(fresh.length);
    expect(tab.selectedTip().id).toBe(source.chain.selectedTip().id);
    expect(tab.blockAtHeight(tab.selectedTip().height - 5)?.id).toBe(source.chain.blockAtHeight(source.chain.selectedTip().height - 5)?.id);
    // A few hundred headers known, not the chain's thousand; the pruning point of the first ones above reads below them.
    expect(tab.count()).toBeLessThan(source.headers.length / 5);
    expect(tab.commitmentsDeferred()).toBeGreaterThan(0);
    expect(tab.commitmentsDeferred()).toBeLessThan(fresh.length);
    await tab.flush();
    expect(store.join()?.pruningPoint).toEqual(source.chain.get(point)!.hash);
    expect(store.rows.length).toBe(fresh.length);
  });

  it('checks an account proof against a header above the point that the joined tab verified', async () => {
    const tab = await openTab();
    await tab.join(freshJoin());
    tab.addHeaders(above.filter((h) => !tab.has(toHex(blockHash(h)))));
    const miner = source.chain.selectedTip().header.miner;
    const p = source.ledger.proveAccount(miner);
    const answer = {
      state_root: toHash0x(p.stateRoot), block_hash: `0x${p.blockHash}`,
      account: { balance: unitsToCoins(p.account?.balance ?? 0n), nonce: Number(p.account?.nonce ?? 0n) }, proof: proofToJson(p.proof),
    };
    const verified = verifyAccountProof(tab, encodeAddress(tabParams.hrp, miner), answer);
    expect(verified.balance).toBeGreaterThan(0n);
    expect(verified.blockHash).toBe(toHash0x(source.chain.selectedTip().hash));
  });

  it('refuses a header above the point whose pruning point or level parents were edited', async () => {
    const tab = await openTab();
    await tab.join(freshJoin());
    const fresh = above.filter((h) => !tab.has(toHex(blockHash(h))));
    const last = fresh.length - 1;
    tab.addHeaders(fresh.slice(0, last));
    const next = fresh[last]!;
    const wrongPoint = refusal(() => tab.addHeaders([regrind({ ...next, pruningPoint: source.chain.genesis.hash })]));
    expect(wrongPoint.reason).toBe('header-invalid');
    expect(wrongPoint.rule).toBe('context.pruning-point.mismatch');
    const runs = next.levelParents!;
    const otherRuns = [{ levels: runs[0]!.levels, parents: [source.chain.genesis.hash] }, ...runs.slice(1)];
    const wrongRuns = refusal(() => tab.addHeaders([regrind({ ...next, levelParents: otherRuns })]));
    expect(wrongRuns.rule).toBe('context.level-parents.mismatch');
    expect(tab.addHeaders([next])).toBe(1);
  });

  it('refuses a tampered proof with its reason and stores nothing', async () => {
    const proof = proofAt(source.chain, point);
    const trusted = trustedAt(source.chain, point);
    const level0 = proof.levels[0]!;
    const edited = [...level0];
    edited[3] = { ...edited[3]!, timestampMs: edited[3]!.timestampMs + 1 };
    const forged = { levels: [edited, ...proof.levels.slice(1)] };
    const error = refusal(() => checkJoin(tabParams, forged, trusted, tabClock().nowMs()));
    expect(error.reason).toBe('proof-invalid');
    expect(['header-level', 'disconnected']).toContain(error.proofReason);
    const short = refusal(() => checkJoin(tabParams, { levels: proof.levels.slice(0, 10) }, trusted, tabClock().nowMs()));
    expect(short.proofReason).toBe('levels');
    const store = createMemoryHeaderStore();
    const tab = await openTab(store);
    expect(tab.joinedAt()).toBeUndefined();
    expect(store.join()).toBeUndefined();
  });

  it('refuses trusted data for another point, or with edited GHOSTDAG data, and keeps the chain it had', async () => {
    const proof = proofAt(source.chain, point);
    const otherPoint = toHex(source.chain.get(point)!.header.pruningPoint!);
    const wrong = refusal(() => checkJoin(tabParams, proof, trustedAt(source.chain, otherPoint), tabClock().nowMs()));
    expect(wrong.reason).toBe('trusted-invalid');
    expect(wrong.trustedReason).toBe('pruning-point-mismatch');
    const trusted = trustedAt(source.chain, point);
    const blocks = trusted.blocks.map((b, i) => (i === 5 ? { ...b, ghostdag: { ...b.ghostdag, blueScore: b.ghostdag.blueScore + 1 } } : b));
    const edited = refusal(() => checkJoin(tabParams, proof, { ...trusted, blocks }, tabClock().nowMs()));
    expect(edited.trustedReason).toBe('ghostdag-header-mismatch');
  });

  it('resumes after a reload from the stored join and headers, without the proof, and goes on', async () => {
    const store = createMemoryHeaderStore();
    const first = await openTab(store);
    await first.join(freshJoin());
    const fresh = above.filter((h) => !first.has(toHex(blockHash(h))));
    first.addHeaders(fresh.slice(0, 20));
    await first.flush();
    const again = await openTab(store);
    expect(again.joinedAt()?.id).toBe(point);
    expect(again.resumedCount).toBe(20);
    expect(again.selectedTip().id).toBe(first.selectedTip().id);
    expect(again.addHeaders(fresh.slice(20))).toBe(fresh.length - 20);
    expect(again.selectedTip().id).toBe(source.chain.selectedTip().id);
    // The stored proof verifies again when asked for (to compare it with a node's).
    expect(again.joinProof()?.pruningPointId).toBe(point);
  });

  it('starts over from genesis when the stored join does not read back', async () => {
    const store = createMemoryHeaderStore();
    const first = await openTab(store);
    await first.join(freshJoin());
    await store.saveJoin({ ...store.join()!, proof: Uint8Array.of(1, 2, 3) });
    const again = await openTab(store);
    expect(again.joinedAt()).toBeUndefined();
    expect(again.selectedTip().id).toBe(again.genesis.id);
    expect(store.join()).toBeUndefined();
  });
});
