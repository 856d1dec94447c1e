// Joining on a wider DAG (docs/pruning-proof.md "Trusted data"): k = 3 and side branches forked three or six heights
// back, merged by the next round, so mergesets carry reds and the point's anticone reaches below its selected parent.
// Chains joined at several blocks of the source's selected chain colour every block above their point as the source
// did and end with its tip and state.
import { describe, expect, it } from 'vitest';
import { buildTrustedData } from '../../../src/chain/trusted-data.ts';
import type { Block } from '../../../src/codec/block.ts';
import type { NetworkParams } from '../../../src/consensus/params.ts';
import { blockHash } from '../../../src/consensus/pow.ts';
import { openLedgerChain } from '../../../src/state/ledger.ts';
import { createMemoryStore } from '../../../src/storage/memory-store.ts';
import { toHex } from '../../../src/util/bytes.ts';
import { makeBlock } from '../../helpers/chain-fixtures.ts';
import { transfer } from '../../helpers/ledger-fixtures.ts';
import { blocksAbove, copyState, feedAll, joinClock, joinMiner, joinParams, joinPayees, openSource } from '../../helpers/trusted-fixtures.ts';

const params: NetworkParams = Object.freeze({ ...joinParams, ghostdagK: 3, mergeDepth: 10 });

describe('trusted data on a wide DAG', () => {
  it('gives a chain joined at any of several chain blocks the source\'s colouring above it, reds included', async () => {
    const source = await openSource(true, createMemoryStore(), params);
    const blocks: Block[] = [];
    let nonce = 0n;
    for (let round = 0; round < 70; round++) {
      const tip = source.chain.selectedTip();
      const tips = source.chain.tips().map((t) => t.id);
      const pay = tip.height > 3 && round % 2 === 0;
      const made = [makeBlock(source.chain, { parents: tips, miner: joinMiner.address, transactions: pay ? [transfer(joinMiner, joinPayees[round % 5]!, 500n + BigInt(round), nonce++)] : [] })];
      // A branch forked three or six heights back, and a sibling: both merged by the next round's block.
      if (round % 3 === 1 && tip.height > 4) made.push(makeBlock(source.chain, { parents: [source.chain.blockAtHeight(tip.height - (round % 2 === 0 ? 6 : 3))!.id], miner: joinPayees[1]!, timestampMs: made[0]!.header.timestampMs + 2 }));
      if (round % 4 === 2) made.push(makeBlock(source.chain, { parents: tips, miner: joinPayees[2]!, timestampMs: made[0]!.header.timestampMs + 1 }));
      for (const block of made) {
        expect((await source.chain.addBlock(block)).status).toBe('accepted');
        blocks.push(block);
      }
    }
    await source.chain.settled();
    // Any block of the selected chain can be the point (the archive keeps every state): join at several.
    let reds = 0;
    let anticones = 0;
    for (const height of [26, 35, 44, 53, 62]) {
      const point = source.chain.blockAtHeight(height)!;
      const trusted = buildTrustedData(source.chain, point.id);
      const trustedIds = new Set(trusted.blocks.map((b) => toHex(blockHash(b.header))));
      anticones += [...trustedIds].filter((id) => id !== point.id && !source.chain.engine.isDagAncestorOf(id, point.id)).length;
      const store = createMemoryStore();
      await copyState(source.store, store, point.header.stateRoot);
      const { chain } = await openLedgerChain({ params, store, clock: joinClock(), join: trusted });
      const above = blocksAbove(source.chain, blocks, point.id, trustedIds);
      await feedAll(chain, above);
      expect(chain.selectedTip().id).toBe(source.chain.selectedTip().id);
      expect(chain.selectedTip().header.stateRoot).toEqual(source.chain.selectedTip().header.stateRoot);
      for (const block of above) {
        const id = toHex(blockHash(block.header));
        expect(chain.ghostdag(id)).toEqual(source.chain.ghostdag(id));
        reds += source.chain.ghostdag(id).mergesetReds.length;
      }
      await chain.stopPruning();
    }
    expect(reds).toBeGreaterThan(0);
    expect(anticones).toBeGreaterThan(2);
  }, 30_000);
});
