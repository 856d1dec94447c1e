// verifyPruningProof (docs/pruning-proof.md "Verification"): an honest proof verifies, and for each rule a proof that
// breaks only that rule is refused with that rule's reason.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { BlockHeader } from '../../../src/codec/header.ts';
import { buildPruningProof } from '../../../src/pruning-proof/build-proof.ts';
import { type BlockId, blockAtDepth, createLevelDag, levelOfId, levelParentIds, levelWork } from '../../../src/pruning-proof/level-dag.ts';
import { blockHash, targetToCompact } from '../../../src/consensus/pow.ts';
import { ProofError, type ProofErrorReason } from '../../../src/pruning-proof/proof-errors.ts';
import type { PruningProof } from '../../../src/pruning-proof/pruning-proof.ts';
import { type VerifiedProof, verifyPruningProof } from '../../../src/pruning-proof/verify-proof.ts';
import { compareBytes, fromHex, toHex } from '../../../src/util/bytes.ts';
import { type LevelDagFixture, createLevelDagFixture, mineHeader, unminedHeader } from '../../helpers/level-dag.ts';

let f: LevelDagFixture;
let proof: PruningProof;
let verified: VerifiedProof;
let pp: BlockId;
const idOf = new Map<BlockHeader, BlockId>();

function refusal(p: PruningProof, params = f.params): ProofError {
  try {
    verifyPruningProof(p, params);
  } catch (error) {
    if (error instanceof ProofError) return error;
    throw error;
  }
  throw new Error('expected the proof to be refused');
}

function expectRefused(p: PruningProof, reason: ProofErrorReason): ProofError {
  const error = refusal(p);
  expect(error.reason, error.message).toBe(reason);
  expect(error.peerFault).toBe(true);
  return error;
}

const withLevel = (p: PruningProof, level: number, list: readonly BlockHeader[]): PruningProof => ({
  levels: p.levels.map((l, i) => (i === level ? list : l)),
});
const listIds = (level: number): BlockId[] => proof.levels[level]!.map((h) => idOf.get(h)!);
/** Levels whose root is not genesis and whose list is longer than its tip alone. */
const fullLevels = (): number[] => verified.levels.filter((l) => l.root !== f.params.genesis).map((l) => l.level);

/** The headers of `level`'s list that descend from `from` (itself included), in list order. */
function descendantsIn(level: number, from: BlockId): BlockHeader[] {
  const kept = new Set([from]);
  return proof.levels[level]!.filter((h) => {
    const id = idOf.get(h)!;
    if (id === from || levelParentIds(h, level).some((p) => kept.has(p))) {
      kept.add(id);
      return true;
    }
    return false;
  });
}

beforeAll(() => {
  f = createLevelDagFixture({ seed: 7 });
  const tips = f.extend([f.params.genesis], 3000);
  // A level-0 pruning point, so levels ≥ 1 end at one of its parents there (rules 8 and 9 have both cases).
  pp = f.pruningPointOf(f.selectedOf(tips));
  while (levelOfId(pp, f.params) > 0) pp = f.engine.get(pp)!.selectedParent!;
  for (const [id, h] of f.headers) idOf.set(h, id);
  proof = buildPruningProof(f.source, pp, f.params);
  verified = verifyPruningProof(proof, f.params);
}, 120_000);

describe('an honest proof', () => {
  it('verifies and names the pruning point, each level ending at its selected tip', () => {
    expect(verified.pruningPointId).toBe(pp);
    expect(verified.levels).toHaveLength(256);
    for (const level of verified.levels) {
      expect(level.tip).toBe(idOf.get(proof.levels[level.level]!.at(-1)!));
      expect(level.root === f.params.genesis || level.tipBlueScore >= 2 * f.params.m).toBe(true);
    }
    expect(verified.levels[0]!.tip).toBe(pp);
    expect(levelParentIds(f.headers.get(pp)!, 1)).toContain(verified.levels[1]!.tip);
    expect(fullLevels().length).toBeGreaterThanOrEqual(3);
  });

  it('verifies with a pruning point above level 0 and with genesis as the pruning point', () => {
    let high = f.pruningPointOf(f.order.at(-1)!);
    while (levelOfId(high, f.params) === 0) high = f.engine.get(high)!.selectedParent!;
    const v = verifyPruningProof(buildPruningProof(f.source, high, f.params), f.params);
    for (let level = 0; level <= v.pruningPointLevel; level++) expect(v.levels[level]!.tip).toBe(high);
    const g = verifyPruningProof(buildPruningProof(f.source, f.params.genesis, f.params), f.params);
    expect(g.pruningPointId).toBe(f.params.genesis);
    expect(g.distinctHeaders).toBe(1);
  });
});

describe('rule 1: levels', () => {
  it('refuses a proof with a level missing', () => expectRefused({ levels: proof.levels.slice(0, -1) }, 'levels'));
  it('refuses an empty level 0', () => expectRefused(withLevel(proof, 0, []), 'levels'));
  it('refuses an empty level above 0', () => expectRefused(withLevel(proof, 3, []), 'levels'));
});

describe('rule 2: header-level', () => {
  it('refuses a header whose level is below its level list (one taken from a lower level)', () => {
    const level = fullLevels().at(-1)!;
    const low = proof.levels[0]!.find((h) => levelOfId(idOf.get(h)!, f.params) < level)!;
    const list = [...proof.levels[level]!];
    list.splice(1, 0, low);
    const error = expectRefused(withLevel(proof, level, list), 'header-level');
    expect(error.message).toContain(`expected ≥ ${level}`);
  });

  it('refuses a header whose nonce fails its bits', () => {
    const list = [...proof.levels[0]!];
    const i = Math.floor(list.length / 2);
    list[i] = unminedHeader(list[i]!).header;
    expect(expectRefused(withLevel(proof, 0, list), 'header-level').message).toContain('proof of work');
  });
});

describe('rule 3: disconnected', () => {
  it('refuses a header (not the first) none of whose parents are earlier in its level', () => {
    const list = [...proof.levels[0]!];
    const i = Math.floor(list.length / 2);
    list[i] = mineHeader({ ...list[i]!, parents: [fromHex('11'.repeat(32))] }).header;
    expectRefused(withLevel(proof, 0, list), 'disconnected');
  });
});

describe('rule 4: blue-work', () => {
  it('refuses a child whose claimed blue work is not above its inflated parent', () => {
    const list = [...proof.levels[0]!];
    const ids = listIds(0);
    // c: a single-parent header that is its parent x's first child in the list, x not the root (the inflated x
    // changes id, so no other child of x may come before c).
    const firstChild = (x: number): number => list.findIndex((h) => levelParentIds(h, 0).includes(ids[x]!));
    const c = list.findIndex((h, i) => {
      const x = ids.indexOf(levelParentIds(h, 0)[0]!);
      return h.parents.length === 1 && x >= 1 && firstChild(x) === i;
    });
    const x = ids.indexOf(levelParentIds(list[c]!, 0)[0]!);
    const inflated = mineHeader({ ...list[x]!, blueWork: list[x]!.blueWork + 1_000_000n });
    list[x] = inflated.header;
    list[c] = mineHeader({ ...list[c]!, parents: [fromHex(inflated.id)] }).header;
    expectRefused(withLevel(proof, 0, list), 'blue-work');
  });
});

describe('rule 5: duplicate', () => {
  it('refuses a header twice in one level', () => {
    const list = [...proof.levels[0]!];
    const i = Math.floor(list.length / 2);
    list.splice(i, 0, list[i]!);
    expectRefused(withLevel(proof, 0, list), 'duplicate');
  });
});

describe('rule 6: ghostdag', () => {
  it('refuses a header whose parents at the level are not an antichain', () => {
    const list = [...proof.levels[0]!];
    const ids = listIds(0);
    const i = Math.floor(list.length / 2);
    const parent = list[i]!;
    const grand = f.engine.get(ids[i]!)!.selectedParent!;
    expect(ids).toContain(grand);
    const bad = mineHeader({ ...parent, parents: [fromHex(ids[i]!), fromHex(grand)].sort(compareBytes), blueWork: parent.blueWork + 5n });
    list.splice(i + 1, 0, bad.header);
    expectRefused(withLevel(proof, 0, list), 'ghostdag');
  });
});

describe('rule 7: interlock', () => {
  it('refuses a level cut above the block M deep below the next level up', () => {
    const level = fullLevels()[0]!;
    const above = verified.levels[level + 1]!;
    const required = blockAtDepth(above.blocks, above.tip, f.params.m);
    const ids = listIds(level);
    // The next block of the list in required's future: the cut list starts there, connected, ending at the same tip.
    const from = ids.find((id, i) => i > ids.indexOf(required) && levelParentIds(proof.levels[level]![i]!, level).includes(required))!;
    expectRefused(withLevel(proof, level, descendantsIn(level, from)), 'interlock');
  });
});

describe('rule 8: tip', () => {
  it('refuses a level whose selected tip is a block the pruning point does not name at that level', () => {
    const level = 1;
    const tip = verified.levels[level]!.tip;
    const child = f.addBlock([tip], 99, level);
    expectRefused(withLevel(proof, level, [...proof.levels[level]!, f.headers.get(child)!]), 'tip');
  });

  it('refuses a level at or below the pruning point\'s own level whose selected tip is not the pruning point', () => {
    let high = f.pruningPointOf(f.order.at(-1)!);
    while (levelOfId(high, f.params) === 0) high = f.engine.get(high)!.selectedParent!;
    const p = buildPruningProof(f.source, high, f.params);
    const child = f.addBlock([high], 97, 1);
    expectRefused(withLevel(p, 1, [...p.levels[1]!, f.headers.get(child)!]), 'tip');
  });
});

describe('rule 9: tip-last', () => {
  it('refuses a level whose last header is not its selected tip', () => {
    const level = 1;
    const ids = listIds(level);
    // A block hanging from the middle of the level: lighter than the tip, so the tip stays selected.
    const side = f.addBlock([ids[Math.floor(ids.length / 2)]!], 98, level);
    expectRefused(withLevel(proof, level, [...proof.levels[level]!, f.headers.get(side)!]), 'tip-last');
  });
});

describe('rule 10: too-short', () => {
  it('refuses a level whose tip is under 2M blue score above a root that is not genesis', () => {
    // Starting a level's list at its interlock block keeps rules 1–9; where that block is under 2M deep, rule 10 breaks.
    let refused = 0;
    for (const level of fullLevels()) {
      const above = verified.levels[level + 1]!;
      const required = blockAtDepth(above.blocks, above.tip, f.params.m);
      if (required === verified.levels[level]!.root) continue;
      const cut = withLevel(proof, level, descendantsIn(level, required));
      try {
        verifyPruningProof(cut, f.params);
      } catch (error) {
        expect(error).toBeInstanceOf(ProofError);
        expect((error as ProofError).reason, (error as Error).message).toBe('too-short');
        refused++;
      }
    }
    expect(refused).toBeGreaterThan(0);
  });
});

describe('robustness', () => {
  it('a proof with one header dropped, repeated, moved or swapped either verifies or is refused with a ProofError', () => {
    const levels = fullLevels();
    fc.assert(
      fc.property(fc.constantFrom(...levels), fc.nat(), fc.nat(), fc.constantFrom('drop', 'repeat', 'swap', 'move'), (level, a, b, kind) => {
        const list = [...proof.levels[level]!];
        const i = a % list.length;
        const j = b % list.length;
        if (kind === 'drop') list.splice(i, 1);
        else if (kind === 'repeat') list.splice(j, 0, list[i]!);
        else if (kind === 'swap') [list[i], list[j]] = [list[j]!, list[i]!];
        else list.splice(j, 0, proof.levels[0]![i % proof.levels[0]!.length]!);
        try {
          verifyPruningProof(withLevel(proof, level, list), f.params);
        } catch (error) {
          expect(error).toBeInstanceOf(ProofError);
        }
      }),
      { numRuns: 30, seed: 19 },
    );
  });
});

describe('identical levels', () => {
  it('are computed once when list, parents and work agree, with the same result as computing them', () => {
    // Bits 16 times harder than the pow limit put every block at level ≥ 4, where a block's work (32) is also the
    // level-4 floor: levels 0–4 are one sub-DAG with one work, so the builder gives lists that repeat.
    const hard = createLevelDagFixture({ seed: 9, bits: targetToCompact((1n << 251n) - 1n), pruningDepth: 60 });
    const tips = hard.extend([hard.params.genesis], 1_000);
    const p = buildPruningProof(hard.source, hard.pruningPointOf(hard.selectedOf(tips)), hard.params);
    const v = verifyPruningProof(p, hard.params);
    const ids = (level: number): string => p.levels[level]!.map((h) => toHex(blockHash(h))).join();
    expect(ids(0)).toBe(ids(1));
    expect(v.levels[0]!.blocks).toBe(v.levels[1]!.blocks);
    // Level 5's blocks weigh 64 each: not the same work, so it is computed on its own.
    expect(v.levels[5]!.blocks).not.toBe(v.levels[4]!.blocks);
    const fresh = createLevelDag(0, hard.params);
    for (const h of p.levels[0]!) {
      const id = toHex(blockHash(h));
      fresh.add(id, levelParentIds(h, 0).filter((q) => fresh.has(q)), levelWork(h, 0, hard.params.maxTarget));
    }
    expect(fresh.selectedTip()).toBe(v.levels[0]!.tip);
    expect(fresh.get(v.levels[0]!.tip)).toEqual({ selectedParent: expect.any(String), blueScore: v.levels[0]!.tipBlueScore, blueWork: v.levels[0]!.tipBlueWork });
  });
});
