// Finality and bounded merge depth as consensus rules (src/chain/depth-rules.ts): each DAG below breaks only that rule,
// is accepted with the rule out of reach (a depth larger than the DAG) and refused with the rule's code once it
// applies, leaving the chain as it was. The kosherizing case shows that a deep red is mergeable when a blue in the
// merge depth root's future already covers it; virtual parents leave out a tip whose merge would break the rule.
import { describe, expect, it } from 'vitest';
import { openChain, type Chain, type FinalityConflictEvent } from '../../../src/chain/chain.ts';
import { chainBlockAtBlueScore } from '../../../src/chain/depth-rules.ts';
import { BlockRuleError, type BlockRule } from '../../../src/chain/errors.ts';
import type { Block } from '../../../src/codec/block.ts';
import type { NetworkParams } from '../../../src/consensus/params.ts';
import { blockHash } from '../../../src/consensus/pow.ts';
import { createMemoryStore } from '../../../src/storage/memory-store.ts';
import { toHex } from '../../../src/util/bytes.ts';
import { createManualClock } from '../../../src/util/clock.ts';
import { easyParams, makeBlock, testMiner } from '../../helpers/chain-fixtures.ts';

const idOf = (b: Block): string => toHex(blockHash(b.header));

async function freshChain(params: NetworkParams): Promise<Chain> {
  return openChain({ params, store: createMemoryStore(), clock: createManualClock(params.genesis.timestampMs + 3_600_000) });
}

/** Blocks of one branch share a miner; another branch's miner keeps two branches' blocks on one parent apart. */
const minerOf = (branch: number): Uint8Array => Uint8Array.from(testMiner, (v, i) => (i === 32 ? branch : v));

async function add(chain: Chain, parents: readonly string[], branch = 1): Promise<string> {
  const block = makeBlock(chain, { parents, miner: minerOf(branch) });
  const result = await chain.addBlock(block);
  expect(result.status).toBe('accepted');
  return idOf(block);
}

/** A chain of `n` blocks on `from`; returns their ids, lowest first. */
async function extend(chain: Chain, from: string, n: number, branch = 1): Promise<string[]> {
  const ids: string[] = [];
  let tip = from;
  for (let i = 0; i < n; i++) ids.push((tip = await add(chain, [tip], branch)));
  return ids;
}

async function refusal(chain: Chain, block: Block): Promise<BlockRule> {
  const before = { blocks: chain.blockCount(), tip: chain.selectedTip().id, tips: chain.tips().map((t) => t.id).sort() };
  const error = await chain.addBlock(block).then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(BlockRuleError);
  expect((error as BlockRuleError).code).toBe(-32000);
  expect({ blocks: chain.blockCount(), tip: chain.selectedTip().id, tips: chain.tips().map((t) => t.id).sort() }).toEqual(before);
  expect(chain.isInvalid(idOf(block))).toBe(true);
  return (error as BlockRuleError).rule;
}

// k = 3 so that a side block goes red after a few chain blocks.
const deepMerge = { ghostdagK: 3, finalityDepth: 1_000 } as const;

/**
 * genesis → c1 → … → c6 on one side; R on c1, and B on [c3, R] (R is blue for B). Blue scores: c_i = i, B = 5.
 * A block on [c6, x] has R red (its anticone c2…c6 holds five blues > k).
 */
async function deepMergeDag(params: NetworkParams) {
  const chain = await freshChain(params);
  const [c1, c2, c3, c4, c5, c6] = await extend(chain, chain.genesis.id, 6) as [string, string, string, string, string, string];
  const r = await add(chain, [c1], 2);
  const b = await add(chain, [c3, r], 3);
  return { chain, c: [c1, c2, c3, c4, c5, c6] as const, r, b };
}

describe('bounded merge depth', () => {
  it('a block merging a red outside its merge depth root’s future is accepted without the rule and refused with it', async () => {
    // Without the rule in reach (merge depth above every blue score here) the merge is valid.
    const loose = await deepMergeDag(easyParams({ ...deepMerge, mergeDepth: 500 }));
    const looseMerge = makeBlock(loose.chain, { parents: [loose.c[5], loose.r], miner: minerOf(5) });
    expect(loose.chain.engine.computeBlock([loose.c[5], loose.r], 1n).mergesetReds).toEqual([loose.r]);
    expect((await loose.chain.addBlock(looseMerge)).status).toBe('accepted');

    // Merge depth 5: the block on [c6, R] has blue score 7, its root is c2, and R (on c1) is not in c2's future.
    const { chain, c, r } = await deepMergeDag(easyParams({ ...deepMerge, mergeDepth: 5 }));
    const block = makeBlock(chain, { parents: [c[5], r], miner: minerOf(5) });
    expect(block.header.blueScore).toBe(7);
    expect(chainBlockAtBlueScore(chain.get(c[5])!, 7 - 5).id).toBe(c[1]);
    expect(await refusal(chain, block)).toBe('context.merge-depth.violated');
  });

  it('a deep red that a blue in the root’s future already has in its past may be merged (kosherizing)', async () => {
    const { chain, c, r, b } = await deepMergeDag(easyParams({ ...deepMerge, mergeDepth: 5 }));
    // [c6, B]: blue score 8, root c3; R is red and outside c3's future, but B (a blue in c3's future) covers it.
    const data = chain.engine.computeBlock([c[5], b], 1n);
    expect(data.mergesetBlues).toContain(b);
    expect(data.mergesetReds).toEqual([r]);
    expect(data.blueScore).toBe(8);
    await add(chain, [c[5], b]);
  });

  it('the virtual leaves out a tip whose merge would break the rule, so templates stay valid', async () => {
    const { chain, c, r } = await deepMergeDag(easyParams({ ...deepMerge, mergeDepth: 5 }));
    // Tips now: c6 and B (R is B's parent). Drop B's side: a fresh side tip on c1 only.
    const lone = await add(chain, [r], 4);
    expect(chain.tips().map((t) => t.id)).toContain(lone);
    const { parents } = chain.virtualParents();
    expect(parents[0]).toBe(c[5]);
    expect(parents).not.toContain(lone);
    // A block on exactly the virtual's parents is accepted.
    await add(chain, parents);
  });
});

describe('finality', () => {
  /**
   * genesis → c1…c10 (the selected chain, blue score 10), and a lighter side chain on c2: s1…s7 (blue scores 3…9)
   * and x on s6. A block on [s7, x] merges both blues: blue score 11, heavier than c10.
   */
  async function conflict(params: NetworkParams) {
    const chain = await freshChain(params);
    const c = await extend(chain, chain.genesis.id, 10);
    const side = await extend(chain, c[1]!, 7, 2);
    const x = await add(chain, [side[5]!], 3);
    expect(chain.selectedTip().id).toBe(c[9]);
    const takeover = makeBlock(chain, { parents: [side[6]!, x], miner: minerOf(2) });
    expect(takeover.header.blueScore).toBe(11);
    return { chain, c, side, takeover };
  }

  it('a heavier chain that leaves the finality point is accepted without the rule and refused with it', async () => {
    const loose = await conflict(easyParams({ ghostdagK: 3, finalityDepth: 500, mergeDepth: 400 }));
    expect((await loose.chain.addBlock(loose.takeover)).status).toBe('accepted');
    expect(loose.chain.selectedTip().id).toBe(idOf(loose.takeover));

    // Finality depth 5: the tip c10 has its finality point at c5 (blue score 5), which the side chain lacks.
    const { chain, c, takeover } = await conflict(easyParams({ ghostdagK: 3, finalityDepth: 5, mergeDepth: 3 }));
    expect(chain.finalityPoint().id).toBe(c[4]);
    const events: FinalityConflictEvent[] = [];
    chain.onFinalityConflict((e) => events.push(e));
    expect(await refusal(chain, takeover)).toBe('context.finality.violated');
    expect(events).toEqual([{ block: idOf(takeover), finalityPoint: c[4], selectedTip: c[9] }]);
    // Offered again it is refused at once, as a block that failed before, and raises nothing new.
    expect(await refusal(chain, takeover)).toBe('context.parents.invalid');
    expect(events).toHaveLength(1);
    // The selected chain keeps growing on c10.
    await add(chain, [c[9]!]);
    expect(chain.selectedTip().header.blueScore).toBe(11);
  });

  it('a side chain that stays lighter is still accepted (only a move of the selected chain is refused)', async () => {
    const { chain, side } = await conflict(easyParams({ ghostdagK: 3, finalityDepth: 5, mergeDepth: 3 }));
    expect(chain.has(side.at(-1)!)).toBe(true);
    expect(chain.isInvalid(side.at(-1)!)).toBe(false);
  });
});
