// Joining a version 2 chain whose pruning depth is above trustedChainDepth (issue 19): the blocks above the pruning
// point P commit to pruning points down to P's own (docs/pruning-proof.md "Header version 2"), so the trusted set
// reaches P's committed pruning point, and a chain joined from a pruned node's set accepts every block above P.
import { describe, expect, it } from 'vitest';
import { buildTrustedData, trustedChainDepth } from '../src/chain/trusted-data.ts';
import type { NetworkParams } from '../src/consensus/params.ts';
import { blockHash } from '../src/consensus/pow.ts';
import { openLedgerChain } from '../src/state/ledger.ts';
import { createMemoryStore } from '../src/storage/memory-store.ts';
import { toHex } from '../src/util/bytes.ts';
import { blocksAbove, buildSourceBlocks, copyState, feedAll, joinClock, joinParams, openSource } from './helpers/trusted-fixtures.ts';

const params: NetworkParams = Object.freeze({ ...joinParams, headerVersion: 2, pruningDepth: 60 });

describe('joining a version 2 chain with a deep pruning window', () => {
  it("reaches P's committed pruning point and follows the source above P", async () => {
    expect(params.pruningDepth).toBeGreaterThan(trustedChainDepth(params));
    const archive = await openSource(true, createMemoryStore(), params);
    const pruned = await openSource(false, createMemoryStore(), params);
    const blocks = await buildSourceBlocks(archive, 160);
    await feedAll(pruned.chain, blocks);
    const point = pruned.chain.pruning()!.pruningPoint;
    const committed = toHex(point.header.pruningPoint!);
    expect(pruned.chain.get(committed)!.height).toBeGreaterThan(0);
    const trusted = buildTrustedData(pruned.chain, point.id);
    const ids = new Set(trusted.blocks.map((b) => toHex(blockHash(b.header))));
    expect(ids.has(committed)).toBe(true);

    const store = createMemoryStore();
    await copyState(archive.store, store, point.header.stateRoot);
    const joined = await openLedgerChain({ params, store, clock: joinClock(), join: trusted });
    const above = blocksAbove(archive.chain, blocks, point.id, ids);
    expect(above.length).toBeGreaterThan(params.pruningDepth / 2);
    await feedAll(joined.chain, above);
    expect(joined.chain.selectedTip().id).toBe(archive.chain.selectedTip().id);
    expect(joined.chain.selectedTip().header.stateRoot).toEqual(archive.chain.selectedTip().header.stateRoot);
  }, 60_000);
});
