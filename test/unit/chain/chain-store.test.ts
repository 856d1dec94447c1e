// The chain on a real LMDB store: what is committed survives a reopen exactly (tips, selected tip, chain index),
// and a heavier side branch moves the virtual selected chain (a reorganisation) with the index rewritten.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openChain, type BlockAcceptedEvent, type Chain } from '../../../src/chain/chain.ts';
import { blockHash } from '../../../src/consensus/pow.ts';
import { createManualClock } from '../../../src/util/clock.ts';
import { toHex } from '../../../src/util/bytes.ts';
import { openLmdbStore } from '../../../server/storage/lmdb-store.ts';
import { createMemoryStore } from '../../../src/storage/memory-store.ts';
import { easyParams, makeBlock } from '../../helpers/chain-fixtures.ts';

const params = easyParams();
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function snapshot(chain: Chain) {
  const chainIds: string[] = [];
  for (let h = 0; h <= chain.selectedTip().height; h++) chainIds.push(chain.blockAtHeight(h)!.id);
  return {
    blocks: chain.blockCount(),
    tip: chain.selectedTip().id,
    tips: chain.tips().map((t) => t.id).sort(),
    chainIds,
    blueScores: chainIds.map((id) => chain.ghostdag(id).blueScore),
  };
}

describe('chain persistence', () => {
  it('reopens an LMDB store to exactly the committed DAG and keeps extending it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weft-chain-'));
    dirs.push(dir);
    const clock = createManualClock(params.genesis.timestampMs + 10_000_000);
    let store = openLmdbStore(dir);
    let chain = await openChain({ params, store, clock });
    let t = params.genesis.timestampMs;
    for (let i = 0; i < 40; i++) {
      t += 1_000;
      const tips = chain.tips().map((b) => b.id);
      // Every fourth round two miners find blocks on the same tips: width 2, merged by the next round.
      const width = i % 4 === 0 ? 2 : 1;
      for (let w = 0; w < width; w++) await chain.addBlock(makeBlock(chain, { parents: tips, timestampMs: t + w }));
    }
    const before = snapshot(chain);
    expect(before.blocks).toBe(51);
    await store.close();

    store = openLmdbStore(dir);
    chain = await openChain({ params, store, clock });
    expect(snapshot(chain)).toEqual(before);
    const next = await chain.addBlock(makeBlock(chain, { timestampMs: t + 1_000 }));
    expect(next.status).toBe('accepted');
    expect(chain.selectedTip().height).toBe(before.chainIds.length);
    await store.close();
  });
});

describe('selected chain reorganisation', () => {
  it('moves the chain index to a heavier branch and reports the blocks that left it', async () => {
    const clock = createManualClock(params.genesis.timestampMs + 10_000_000);
    const chain = await openChain({ params, store: createMemoryStore(), clock });
    const events: BlockAcceptedEvent[] = [];
    chain.onBlockAccepted((e) => events.push(e));
    const g = chain.genesis.id;
    let t = params.genesis.timestampMs + 1_000;
    const a1 = makeBlock(chain, { parents: [g], timestampMs: t });
    await chain.addBlock(a1);
    const a1Id = toHex(blockHash(a1.header));
    // Branch B starts beside A1 and grows longer: two blocks beat one.
    const b1 = makeBlock(chain, { parents: [g], timestampMs: t + 1 });
    await chain.addBlock(b1);
    const b1Id = toHex(blockHash(b1.header));
    const tipAfterTwo = chain.selectedTip().id;
    const loser = tipAfterTwo === a1Id ? b1Id : a1Id;
    const winnerFirst = tipAfterTwo === a1Id ? a1Id : b1Id;
    t += 1_000;
    // Extend the branch that is currently losing: it must take over the chain.
    const l2 = makeBlock(chain, { parents: [loser], timestampMs: t });
    await chain.addBlock(l2);
    await chain.settled();
    expect(chain.selectedTip().id).toBe(toHex(blockHash(l2.header)));
    expect(chain.blockAtHeight(1)!.id).toBe(loser);
    expect(chain.blockAtHeight(2)!.id).toBe(chain.selectedTip().id);
    const last = events.at(-1)!;
    expect(last.selectedTipChanged).toBe(true);
    expect(last.removedFromChain).toEqual([winnerFirst]);
  });

  it('reorganises 40 blocks deep through caches of 64 entries, reading its own staged heights', async () => {
    const clock = createManualClock(params.genesis.timestampMs + 10_000_000);
    const store = createMemoryStore();
    const chain = await openChain({ params, store, clock, cacheMb: 0.001 });
    const events: BlockAcceptedEvent[] = [];
    chain.onBlockAccepted((e) => events.push(e));
    const grow = async (from: string, count: number, t0: number): Promise<string[]> => {
      const ids: string[] = [];
      let parent = from;
      for (let i = 0; i < count; i++) {
        const block = makeBlock(chain, { parents: [parent], timestampMs: t0 + i * 1_000 });
        await chain.addBlock(block);
        parent = toHex(blockHash(block.header));
        ids.push(parent);
      }
      return ids;
    };
    const a = await grow(chain.genesis.id, 40, params.genesis.timestampMs + 1_000);
    expect(chain.selectedTip().id).toBe(a.at(-1));
    const b = await grow(chain.genesis.id, 41, params.genesis.timestampMs + 1_001);
    await chain.settled();
    expect(chain.selectedTip().id).toBe(b.at(-1));
    const switched = events.find((e) => e.removedFromChain.length > 0)!;
    expect(switched.removedFromChain).toEqual([...a].reverse());
    // Equal work at 40 blocks each: the hash decides whether B takes over at its 40th or 41st block.
    expect(switched.addedToChain.length).toBeGreaterThanOrEqual(40);
    expect(switched.addedToChain).toEqual(b.slice(0, switched.addedToChain.length));
    for (let h = 1; h <= 41; h++) expect(chain.blockAtHeight(h)!.id).toBe(b[h - 1]);
    expect(chain.blockAtHeight(42)).toBeUndefined();
    // Reopened on the same rows: the same chain.
    const again = await openChain({ params, store, clock });
    for (let h = 1; h <= 41; h++) expect(again.blockAtHeight(h)!.id).toBe(b[h - 1]);
  });
});
