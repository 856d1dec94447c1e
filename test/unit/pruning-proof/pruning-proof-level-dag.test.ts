// The per-level helpers of src/pruning-proof/level-dag.ts, and the test helper's level-parents oracle against the definition
// read off the full past (docs/pruning-proof.md "Block levels", "Header version 2").
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { blockLevel } from '../../../src/consensus/block-level.ts';
import { regtestParams } from '../../../src/consensus/params.ts';
import { type BlockId, blockAtDepth, createLevelDag, levelOfId, levelParentIds, levelWork, proofParamsOf } from '../../../src/pruning-proof/level-dag.ts';
import { toHex } from '../../../src/util/bytes.ts';
import { type LevelDagFixture, createLevelDagFixture } from '../../helpers/level-dag.ts';

let f: LevelDagFixture;

beforeAll(() => {
  f = createLevelDagFixture({ seed: 5 });
  // Wide: side blocks in most rounds, so blocks have several parents and levels merge.
  f.extend([f.params.genesis], 400, { sideRate: 0.6 });
}, 60_000);

describe('proofParamsOf', () => {
  it("takes k, the mergeset limit, the pow limit and the genesis hash from the network", () => {
    expect(proofParamsOf(regtestParams, 20)).toEqual(f.params);
  });
});

describe('levelOfId', () => {
  it('agrees with blockLevel on any hash, and puts genesis at the top level', () => {
    const params = { maxTarget: regtestParams.maxTarget, genesis: 'ff'.repeat(32) };
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.nat(255), (bytes, zeroBits) => {
        // Clear leading bits so high levels are exercised too.
        const hash = Uint8Array.from(bytes);
        for (let bit = 0; bit < zeroBits; bit++) hash[bit >> 3]! &= ~(0x80 >> (bit & 7));
        expect(levelOfId(toHex(hash), params)).toBe(blockLevel(hash, regtestParams.maxTarget));
      }),
      { numRuns: 300, seed: 1 },
    );
    expect(levelOfId(f.params.genesis, f.params)).toBe(255);
  });
});

describe('levelParentIds', () => {
  it('reads level 0 from parents and levels 1..255 from the runs, genesis having none', () => {
    const id = f.order.at(-1)!;
    const header = f.headers.get(id)!;
    expect(levelParentIds(header, 0)).toEqual(header.parents.map(toHex));
    let level = 1;
    for (const run of header.levelParents!) {
      for (let i = 0; i < run.levels; i++, level++) expect(levelParentIds(header, level)).toEqual(run.parents.map(toHex));
    }
    expect(level).toBe(256);
    expect(levelParentIds(header, 255)).toEqual([f.params.genesis]);
    expect(levelParentIds(f.headers.get(f.params.genesis)!, 3)).toEqual([]);
  });
});

describe("the helper's level parents", () => {
  it('are the maximal blocks of level ≥ L in the full past, for every block and level', () => {
    const pastOf = new Map<BlockId, Set<BlockId>>();
    for (const id of f.order) {
      const past = new Set<BlockId>();
      for (const p of levelParentIds(f.headers.get(id)!, 0)) {
        past.add(p);
        for (const q of pastOf.get(p)!) past.add(q);
      }
      pastOf.set(id, past);
    }
    let checked = 0;
    for (const id of f.order.slice(1)) {
      const past = pastOf.get(id)!;
      for (let level = 1; level <= 12; level++) {
        const high = [...past].filter((b) => levelOfId(b, f.params) >= level);
        const maximal = high.filter((b) => !high.some((o) => o !== b && pastOf.get(o)!.has(b))).sort();
        expect(levelParentIds(f.headers.get(id)!, level), `block ${id} level ${level}`).toEqual(maximal);
        checked++;
      }
    }
    expect(checked).toBe(400 * 12);
    // Wide enough that some block had more than one parent at some level ≥ 1.
    expect(f.order.some((id) => levelParentIds(f.headers.get(id)!, 1).length > 1)).toBe(true);
  });
});

describe('levelWork', () => {
  it('is the bits work at level 0 and at least 2^(L+1) above it', () => {
    const header = f.headers.get(f.order[1]!)!;
    const bitsWork = levelWork(header, 0, regtestParams.maxTarget);
    expect(bitsWork).toBe(2n);
    expect(levelWork(header, 1, regtestParams.maxTarget)).toBe(4n);
    expect(levelWork(header, 10, regtestParams.maxTarget)).toBe(2048n);
  });
});

describe('blockAtDepth', () => {
  it('walks the selected chain to the first block more than `depth` blue score below, or the root', () => {
    const dag = createLevelDag(0, f.params);
    const ids = ['aa', 'bb', 'cc', 'dd', 'ee'].map((c) => c.repeat(32));
    ids.forEach((id, i) => dag.add(id, i === 0 ? [] : [ids[i - 1]!], 1n));
    expect(dag.get(ids[4]!)!.blueScore).toBe(4);
    expect(blockAtDepth(dag, ids[4]!, 0)).toBe(ids[3]);
    expect(blockAtDepth(dag, ids[4]!, 2)).toBe(ids[1]);
    expect(blockAtDepth(dag, ids[4]!, 10)).toBe(ids[0]);
    expect(dag.root()).toBe(ids[0]);
    expect(dag.selectedTip()).toBe(ids[4]);
  });
});
