// Pins what the chain computes for a fixed regtest DAG (test/helpers/regtest-dag.ts): block hashes, GHOSTDAG data
// (selected parent, blue score, blue work, mergeset colouring, blue anticone sizes), the selected chain, state roots,
// tips, the virtual's parents and state. Written before consensus data moved to the store (issue 18) and unchanged by
// it: a change to any hash, root or answer fails here. The same answers hold after a reopen of the LMDB store.
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Chain } from '../../../src/chain/chain.ts';
import { regtestParams } from '../../../src/consensus/params.ts';
import { openLedgerChain } from '../../../src/state/ledger.ts';
import { createMemoryStore } from '../../../src/storage/memory-store.ts';
import { toHex } from '../../../src/util/bytes.ts';
import { systemClock } from '../../../src/util/clock.ts';
import { openLmdbStore } from '../../../server/storage/lmdb-store.ts';
import { extendChain } from '../../helpers/regtest-dag.ts';
import { blockHash } from '../../../src/consensus/pow.ts';
import type { Block } from '../../../src/codec/block.ts';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** Everything a node answers about the DAG, as one canonical JSON-able value. */
function answers(chain: Chain, ids: readonly string[]) {
  const tip = chain.selectedTip();
  const ghostdag = ids.map((id) => {
    const g = chain.ghostdag(id);
    const entry = chain.get(id)!;
    return [
      id,
      g.selectedParent,
      g.blueScore,
      g.blueWork.toString(),
      g.mergesetBlues,
      g.mergesetReds,
      [...g.bluesAnticoneSizes].sort(([a], [b]) => (a < b ? -1 : 1)),
      entry.height,
      entry.selectedParent?.id ?? null,
      toHex(entry.header.stateRoot),
      chain.orderedMergeset(g),
    ];
  });
  const selectedChain: string[] = [];
  for (let h = 0; h <= tip.height; h++) selectedChain.push(chain.blockAtHeight(h)!.id);
  const virtual = chain.virtualParents();
  const child = chain.childState(virtual.parents, null);
  return {
    blocks: chain.blockCount(),
    tip: tip.id,
    tipHeight: tip.height,
    tips: chain.tips().map((t) => t.id).sort(),
    ghostdag,
    selectedChain,
    virtualParents: virtual.parents,
    virtualBlueScore: virtual.ghostdag.blueScore,
    virtualBlueWork: virtual.ghostdag.blueWork.toString(),
    childStateRoot: toHex(child.stateRoot),
    childDaaScore: child.daaScore,
    childRules: chain.childRules(tip),
    ancestry: ids.slice(-20).map((id) => chain.engine.isDagAncestorOf(ids[ids.length - 40]!, id)),
  };
}

const digest = (value: unknown): string => createHash('sha256').update(JSON.stringify(value)).digest('hex');

describe('consensus answers for a fixed regtest DAG', () => {
  it('are pinned, and identical after the store is reopened', async () => {
    const built = await openLedgerChain({ params: regtestParams, store: createMemoryStore(), clock: systemClock });
    const blocks: Block[] = await extendChain(built.chain, 600);
    const ids = [built.chain.genesis.id, ...blocks.map((b) => toHex(blockHash(b.header)))];
    const fromMemory = answers(built.chain, ids);

    const dir = mkdtempSync(join(tmpdir(), 'weft-pin-'));
    dirs.push(dir);
    let store = openLmdbStore(dir);
    let { chain } = await openLedgerChain({ params: regtestParams, store, clock: systemClock });
    for (const block of blocks) void chain.addBlock(block);
    await chain.settled();
    const imported = answers(chain, ids);
    expect(imported).toEqual(fromMemory);
    await store.close();

    store = openLmdbStore(dir);
    ({ chain } = await openLedgerChain({ params: regtestParams, store, clock: systemClock }));
    expect(chain.replayedAtOpen).toBe(0);
    expect(answers(chain, ids)).toEqual(fromMemory);
    await store.close();

    // Caches of 64 entries each, far below the DAG: every answer comes through evictions and row reads.
    const tinyDir = mkdtempSync(join(tmpdir(), 'weft-pin-tiny-'));
    dirs.push(tinyDir);
    store = openLmdbStore(tinyDir);
    ({ chain } = await openLedgerChain({ params: regtestParams, store, clock: systemClock, cacheMb: 0.001 }));
    for (const block of blocks) void chain.addBlock(block);
    await chain.settled();
    expect(answers(chain, ids)).toEqual(fromMemory);
    expect(chain.cacheStats().every((c) => c.capacity === 64)).toBe(true);
    await store.close();

    expect(fromMemory.blocks).toBe(601);
    expect({ tip: fromMemory.tip, height: fromMemory.tipHeight, blueScore: fromMemory.virtualBlueScore, root: fromMemory.childStateRoot }).toEqual({
      tip: '42ccb0efee7ab3e5806a6ba711e83227d4f623176e08417e71330c72c0ef46cb',
      height: 480,
      blueScore: 601,
      root: '44814b41fcbe42d8bab2f251959b0fb030ae205785754fc3eeb3ac988590981c',
    });
    expect(digest(fromMemory)).toBe('33cd2626016da4f80909eb873a3e87870581f0c7e833b04a98625749f5c713b2');
  }, 120_000);
});
