// compareProofs (docs/pruning-proof.md "Choosing between two proofs"): of two forks from a common block, the heavier
// one's proof wins in either order; equal proofs keep the defender; a node still at genesis takes any full proof.
import { beforeAll, describe, expect, it } from 'vitest';
import { buildPruningProof } from '../../../src/pruning-proof/build-proof.ts';
import { type ProofContender, compareProofs, requireHeavierProof } from '../../../src/pruning-proof/compare-proofs.ts';
import type { BlockId } from '../../../src/pruning-proof/level-dag.ts';
import { ProofError } from '../../../src/pruning-proof/proof-errors.ts';
import { verifyPruningProof } from '../../../src/pruning-proof/verify-proof.ts';
import { type LevelDagFixture, createLevelDagFixture } from '../../helpers/level-dag.ts';

let f: LevelDagFixture;
let heavy: ProofContender;
let light: ProofContender;
let heavyTip: BlockId;

function contender(tip: BlockId, pruningPoint = f.pruningPointOf(tip)): ProofContender {
  const proof = verifyPruningProof(buildPruningProof(f.source, pruningPoint, f.params), f.params);
  return { proof, tipBlueWork: f.headers.get(tip)!.blueWork };
}

beforeAll(() => {
  f = createLevelDagFixture({ seed: 11, pruningDepth: 60 });
  const fork = f.extend([f.params.genesis], 400);
  // Two branches that never merge: 360 blocks against 240 after the fork, so the pruning points differ.
  heavyTip = f.selectedOf(f.extend(fork, 360, { tag: 3 }));
  const lightTip = f.selectedOf(f.extend(fork, 240, { tag: 5 }));
  heavy = contender(heavyTip);
  light = contender(lightTip);
  expect(heavy.proof.pruningPointId).not.toBe(light.proof.pruningPointId);
}, 120_000);

describe('two forks', () => {
  it('a lighter challenger is refused with insufficient-work', () => {
    const result = compareProofs(heavy, light, f.params);
    expect(result.challengerWins).toBe(false);
    expect(result.level).not.toBeNull();
    expect(result.challengerWork!).toBeLessThan(result.defenderWork!);
    let error: unknown;
    try {
      requireHeavierProof(heavy, light, f.params);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ProofError);
    expect((error as ProofError).reason).toBe('insufficient-work');
    expect((error as ProofError).peerFault).toBe(false);
  });

  it('a heavier challenger wins against the lighter defender', () => {
    const result = requireHeavierProof(light, heavy, f.params);
    expect(result.challengerWins).toBe(true);
    expect(result.challengerWork!).toBeGreaterThan(result.defenderWork!);
  });

  it('the deciding level is the lowest full level where the two share a block', () => {
    const result = compareProofs(light, heavy, f.params);
    const level = result.level!;
    expect(light.proof.levels[level]!.blocks.has(result.commonBlock!)).toBe(true);
    expect(heavy.proof.levels[level]!.blocks.has(result.commonBlock!)).toBe(true);
    for (let lower = 0; lower < level; lower++) {
      const theirs = heavy.proof.levels[lower]!;
      if (theirs.tipBlueScore < 2 * f.params.m) continue;
      let id: BlockId | null = theirs.tip;
      while (id !== null) {
        expect(light.proof.levels[lower]!.blocks.has(id)).toBe(false);
        id = theirs.blocks.get(id)!.selectedParent;
      }
    }
  });
});

describe('ties and the same chain', () => {
  it('an equal proof keeps the defender', () => {
    const result = compareProofs(heavy, { ...heavy }, f.params);
    expect(result.challengerWins).toBe(false);
    expect(result.challengerWork).toBe(result.defenderWork);
    expect(() => requireHeavierProof(heavy, heavy, f.params)).toThrow(ProofError);
  });

  it('the same proof claiming more work above the pruning point wins; less does not', () => {
    expect(compareProofs(heavy, { ...heavy, tipBlueWork: heavy.tipBlueWork + 1n }, f.params).challengerWins).toBe(true);
    expect(compareProofs(heavy, { ...heavy, tipBlueWork: heavy.tipBlueWork - 1n }, f.params).challengerWins).toBe(false);
  });

  it('a later pruning point on the same chain wins against a node that is behind', () => {
    const behindTip = f.engine.get(f.engine.get(heavy.proof.pruningPointId)!.selectedParent!)!.selectedParent!;
    let behindPoint = f.pruningPointOf(behindTip);
    for (let i = 0; i < 30; i++) behindPoint = f.engine.get(behindPoint)!.selectedParent!;
    const behind = contender(behindTip, behindPoint);
    expect(compareProofs(behind, heavy, f.params).challengerWins).toBe(true);
    expect(compareProofs(heavy, behind, f.params).challengerWins).toBe(false);
  });

  it('a defender still at genesis takes any full proof', () => {
    const genesis = contender(f.params.genesis, f.params.genesis);
    const result = compareProofs(genesis, light, f.params);
    expect(result.challengerWins).toBe(true);
  });
});
