// Version 2 headers through the full node's chain and the light chain (docs/pruning-proof.md "Header version 2"):
// a DAG with forks, mined past several pruning-point moves with devnet's version 2 and small depths, is accepted by
// both; a header with wrong level parents, a wrong pruning point or the wrong version is refused by both with its rule.
import { beforeAll, describe, expect, it } from 'vitest';
import { openChain, type Chain } from '../../../src/chain/chain.ts';
import type { BlockRule } from '../../../src/chain/errors.ts';
import { levelParentsSource, pruningPointOf } from '../../../src/chain/header-commitments.ts';
import { encodeHeader, type BlockHeader } from '../../../src/codec/header.ts';
import { collectHeaders } from '../../../src/p2p/locator.ts';
import { LightSyncError } from '../../../src/light/errors.ts';
import { openLightChain } from '../../../src/light/light-chain.ts';
import { createMemoryHeaderStore } from '../../../src/light/light-store.ts';
import { blockHash } from '../../../src/consensus/pow.ts';
import { createMemoryStore } from '../../../src/storage/memory-store.ts';
import { toHex } from '../../../src/util/bytes.ts';
import { createManualClock } from '../../../src/util/clock.ts';
import { easyParams, grind, makeBlock } from '../../helpers/chain-fixtures.ts';

const params = easyParams({ finalityDepth: 6, mergeDepth: 3, pruningDepth: 12 });
const clock = createManualClock(params.genesis.timestampMs + 10_000_000);

let chain: Chain;
const headers: BlockHeader[] = [];

beforeAll(async () => {
  expect(params.headerVersion).toBe(2);
  chain = await openChain({ params, store: createMemoryStore(), clock });
  // Mostly a chain, with a pair of siblings every fourth block that the next block merges.
  for (let i = 0; i < 80; i++) {
    const tips = chain.tips().map((t) => t.id);
    const blocks = i % 4 === 3 ? [makeBlock(chain, { parents: tips }), makeBlock(chain, { parents: tips, miner: Uint8Array.from({ length: 33 }, (_, j) => (j === 0 ? 0 : 7)) })] : [makeBlock(chain, { parents: tips })];
    for (const block of blocks) {
      expect((await chain.addBlock(block)).status).toBe('accepted');
      headers.push(block.header);
    }
  }
}, 120_000);

const regrind = (header: BlockHeader): BlockHeader => ({ ...header, nonce: grind(header) });

/** Tamperings of a valid next header, each breaking one version 2 rule. */
function tamperings(next: BlockHeader): [BlockRule, BlockHeader][] {
  const { levelParents: _runs, pruningPoint: _point, ...v1 } = next;
  const runs = next.levelParents!;
  const otherRuns = [{ levels: runs[0]!.levels, parents: [new Uint8Array(32).fill(7)] }, ...runs.slice(1)];
  return [
    ['context.level-parents.mismatch', regrind({ ...next, levelParents: otherRuns })],
    ['context.pruning-point.mismatch', regrind({ ...next, pruningPoint: chain.genesis.hash })],
    ['header.version', regrind({ ...v1, version: 1 })],
  ];
}

describe('version 2 headers', () => {
  it('commit to level parents with several runs and a pruning point that moved past genesis', () => {
    const tip = chain.selectedTip();
    expect(tip.header.version).toBe(2);
    const point = pruningPointOf({ params, genesis: chain.genesis, get: (id) => chain.get(id), engine: chain.engine }, tip);
    expect(point.id).not.toBe(chain.genesis.id);
    expect(point.header.blueScore).toBeGreaterThan(params.finalityDepth);
    // The tip's commitment is what the pruner derives for its selected parent's chain, and it lies on the tip's chain.
    expect(chain.engine.isChainAncestorOf(point.id, tip.id)).toBe(true);
    expect(headers.some((h) => h.levelParents!.length > 2)).toBe(true);
    // Every run's parents are blocks of at least that level.
    const source = levelParentsSource({ params, genesis: chain.genesis, get: (id) => chain.get(id), engine: chain.engine });
    let level = 1;
    for (const run of tip.header.levelParents!) {
      for (const p of run.parents) expect(source.level(toHex(p))).toBeGreaterThanOrEqual(level + run.levels - 1);
      level += run.levels;
    }
  });

  it('the full node refuses wrong level parents, a wrong pruning point and the wrong version', async () => {
    const next = makeBlock(chain);
    for (const [rule, header] of tamperings(next.header)) {
      await expect(chain.addBlock({ ...next, header }), rule).rejects.toMatchObject({ rule });
    }
    expect((await chain.addBlock(next)).status).toBe('accepted');
    headers.push(next.header);
  });

  it('the light chain verifies the same headers to the same tip and refuses the same tampering', async () => {
    const light = await openLightChain({ params, store: createMemoryHeaderStore(), clock });
    expect(light.addHeaders(headers)).toBe(headers.length);
    expect(light.selectedTip().id).toBe(chain.selectedTip().id);
    const next = makeBlock(chain).header;
    for (const [rule, header] of tamperings(next)) {
      let error: unknown;
      try {
        light.addHeaders([header]);
      } catch (caught) {
        error = caught;
      }
      expect(error, rule).toBeInstanceOf(LightSyncError);
      expect((error as LightSyncError).details).toMatchObject({ rule });
      expect(light.has(toHex(blockHash(header)))).toBe(false);
    }
    expect(light.addHeaders([next])).toBe(1);
  });

  it('headers pages stay within a byte budget, ending on chain blocks, and together cover the chain', () => {
    const budget = 8 * 1024;
    let locator = [chain.genesis.hash];
    let total = 0;
    for (let page = 0; page < 200; page++) {
      const { headers: got, more } = collectHeaders(chain, locator, new Uint8Array(32), 2_000, budget);
      expect(got.length).toBeGreaterThan(0);
      expect(got.reduce((sum, h) => sum + encodeHeader(h).length, 0)).toBeLessThanOrEqual(budget);
      const last = chain.get(toHex(blockHash(got[got.length - 1]!)))!;
      expect(chain.blockAtHeight(last.height)!.id).toBe(last.id);
      total += got.length;
      if (!more) break;
      locator = [last.hash];
    }
    expect(total).toBe(chain.blockCount() - 1);
  });
});
