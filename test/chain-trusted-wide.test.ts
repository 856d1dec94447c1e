// Joining at a pruning point of a wider DAG (docs/pruning-proof.md "Trusted data"): k = 3, side branches forked a few
// heights back and merged later, so mergesets carry reds and the point's anticone reaches below its selected parent.
// The joined chain colours every block above the point as the source did and ends with its tip and state.
import { describe, expect, it } from 'vitest';
import { buildTrustedData } from '../src/chain/trusted-data.ts';
import type { Block } from '../src/codec/block.ts';
import type { NetworkParams } from '../src/consensus/params.ts';
import { blockHash } from '../src/consensus/pow.ts';
import { openLedgerChain } from '../src/state/ledger.ts';
import { createMemoryStore } from '../src/storage/memory-store.ts';
import { toHex } from '../src/util/bytes.ts';
import { makeBlock } from './helpers/chain-fixtures.ts';
import { transfer } from './helpers/ledger-fixtures.ts';
import { blocksAbove, copyState, feedAll, joinClock, joinMiner, joinParams, joinPayees, openSource } from './helpers/trusted-fixtures.ts';

const params: NetworkParams = Object.freeze({ ...joinParams, ghostdagK: 3 });

describe('trusted data on a wide DAG', () => {
  it('gives a joined chain the source\'s colouring, reds included, above the point', async () => {
    const source = await openSource(false, createMemoryStore(), params);
    const blocks: Block[] = [];
    let nonce = 0n;
    for (let round = 0; round < 70; round++) {
      const tip = source.chain.selectedTip();
      const tips = source.chain.tips().map((t) => t.id);
      const pay = tip.height > 3 && round % 2 === 0;
      const made = [makeBlock(source.chain, { parents: tips, miner: joinMiner.address, transactions: pay ? [transfer(joinMiner, joinPayees[round % 5]!, 500n + BigInt(round), nonce++)] : [] })];
      // A branch forked three heights back, and a sibling: both merged by the next round's block.
      if (round % 3 === 1 && tip.height > 4) made.push(makeBlock(source.chain, { parents: [source.chain.blockAtHeight(tip.height - 3)!.id], miner: joinPayees[1]! }));
      if (round % 4 === 2) made.push(makeBlock(source.chain, { parents: tips, miner: joinPayees[2]!, timestampMs: made[0]!.header.timestampMs + 1 }));
      for (const block of made) {
        expect((await source.chain.addBlock(block)).status).toBe('accepted');
        blocks.push(block);
      }
    }
    await source.chain.settled();
    const point = source.chain.pruning()!.pruningPoint;
    const trusted = buildTrustedData(source.chain, point.id);
    const trustedIds = new Set(trusted.blocks.map((b) => toHex(blockHash(b.header))));
    const anticone = [...trustedIds].filter((id) => id !== point.id && !source.chain.engine.isDagAncestorOf(id, point.id));
    expect(anticone.length).toBeGreaterThan(0);

    const store = createMemoryStore();
    await copyState(source.store, store, point.header.stateRoot);
    const { chain } = await openLedgerChain({ params, store, clock: joinClock(), join: trusted });
    const above = blocksAbove(source.chain, blocks, point.id, trustedIds);
    await feedAll(chain, above);
    expect(chain.selectedTip().id).toBe(source.chain.selectedTip().id);
    expect(chain.selectedTip().header.stateRoot).toEqual(source.chain.selectedTip().header.stateRoot);
    let reds = 0;
    for (const block of above) {
      const id = toHex(blockHash(block.header));
      expect(chain.ghostdag(id)).toEqual(source.chain.ghostdag(id));
      reds += source.chain.ghostdag(id).mergesetReds.length;
    }
    expect(reds).toBeGreaterThan(0);
  }, 30_000);
});
