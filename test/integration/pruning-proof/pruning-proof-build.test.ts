// buildPruningProof (docs/pruning-proof.md "The proof") over a long synthetic chain: the proof verifies, its size
// stays about (levels) × 2M distinct headers whatever the chain's length, and each level reads a bounded number of
// headers.
import { beforeAll, describe, expect, it } from 'vitest';
import { type ProofLevelStats, buildPruningProof, buildPruningProofInSteps } from '../../../src/pruning-proof/build-proof.ts';
import { type BlockId, levelOfId } from '../../../src/pruning-proof/level-dag.ts';
import { ProofBuildError } from '../../../src/pruning-proof/proof-errors.ts';
import type { PruningProof } from '../../../src/pruning-proof/pruning-proof.ts';
import { verifyPruningProof } from '../../../src/pruning-proof/verify-proof.ts';
import { blockHash } from '../../../src/consensus/pow.ts';
import { toHex } from '../../../src/util/bytes.ts';
import { type LevelDagFixture, createLevelDagFixture } from '../../helpers/level-dag.ts';

const chainBlocks = 20_000;
let f: LevelDagFixture;
let pp: BlockId;
let proof: PruningProof;
const stats: ProofLevelStats[] = [];

beforeAll(() => {
  f = createLevelDagFixture({ seed: 20, pruningDepth: 200 });
  const tips = f.extend([f.params.genesis], chainBlocks, { sideRate: 0.15 });
  pp = f.pruningPointOf(f.selectedOf(tips));
  proof = buildPruningProof(f.source, pp, f.params, (s) => stats.push(s));
}, 180_000);

describe(`a proof of a ${chainBlocks.toLocaleString('en')}-block chain (M = 20)`, () => {
  it('verifies, ending at the pruning point', () => {
    const verified = verifyPruningProof(proof, f.params);
    expect(verified.pruningPointId).toBe(pp);
    expect(toHex(blockHash(proof.levels[0]!.at(-1)!))).toBe(pp);
  });

  it('holds about 2M headers per level, a few hundred distinct in all, not the chain', () => {
    const { m } = f.params;
    const verified = verifyPruningProof(proof, f.params);
    const populated = stats.filter((s) => s.headers > 1);
    const table = populated.map((s) => `L${s.level}:${s.headers}${s.root === f.params.genesis ? 'g' : ''}`).join(' ');
    console.log(`proof of ${chainBlocks} blocks: ${verified.distinctHeaders} distinct headers over ${populated.length} populated levels (${table})`);
    for (const s of populated) {
      // ≥ 2M blue score needs about 2M blocks; the root overshoots by at most an eighth, plus side blocks.
      expect(s.headers, `level ${s.level}`).toBeLessThanOrEqual(4 * m);
      if (s.root !== f.params.genesis) expect(s.tipBlueScore).toBeGreaterThanOrEqual(2 * m);
    }
    expect(populated.length).toBeGreaterThan(8);
    expect(verified.distinctHeaders).toBeLessThanOrEqual(populated.length * 3 * m);
    expect(verified.distinctHeaders).toBeLessThan(chainBlocks / 10);
  });

  it('reads a bounded number of headers per level', () => {
    for (const s of stats) {
      expect(s.visited, `level ${s.level}`).toBeLessThanOrEqual(Math.max(5 * f.params.m, 2 * s.headers));
      expect(s.attempts).toBeLessThanOrEqual(3);
    }
  });

  it('is the same proof built a level at a time, pausing between levels (a serving node yields there)', async () => {
    let pauses = 0;
    const stepped = await buildPruningProofInSteps(f.source, pp, f.params, async () => {
      pauses++;
    });
    expect(pauses).toBe(stats.length - 1);
    expect(stepped.levels.every((l, i) => l.length === proof.levels[i]!.length && l.every((h, j) => h === proof.levels[i]![j]))).toBe(true);
  });

  it('is the same proof when built again (deterministic)', () => {
    const again = buildPruningProof(f.source, pp, f.params);
    expect(again.levels.map((l) => l.length)).toEqual(proof.levels.map((l) => l.length));
    expect(again.levels.every((l, i) => l.every((h, j) => h === proof.levels[i]![j]))).toBe(true);
  });

  it('is built for any chain block, and levels above the pruning point end at one of its parents there', () => {
    let other = f.engine.get(pp)!.selectedParent!;
    while (levelOfId(other, f.params) < 2) other = f.engine.get(other)!.selectedParent!;
    const verified = verifyPruningProof(buildPruningProof(f.source, other, f.params), f.params);
    expect(verified.pruningPointLevel).toBeGreaterThanOrEqual(2);
    expect(verified.levels[2]!.tip).toBe(other);
  });
});

describe('a store that lacks headers', () => {
  it('fails with ProofBuildError when the pruning point is not stored', () => {
    expect(() => buildPruningProof({ header: (h) => (h === pp ? undefined : f.headers.get(h)) }, pp, f.params)).toThrow(ProofBuildError);
  });

  it('fails with ProofBuildError when the stored headers reach neither 2M blue score nor genesis', () => {
    const floor = f.headers.get(pp)!.blueScore - 30;
    const shallow = { header: (h: BlockId) => { const header = f.headers.get(h); return header !== undefined && (h === f.params.genesis || header.blueScore >= floor) ? header : undefined; } };
    expect(() => buildPruningProof(shallow, pp, f.params)).toThrow(ProofBuildError);
  });
});
