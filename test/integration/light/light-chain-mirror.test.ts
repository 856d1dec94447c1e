// The page's mirror of the light node's chain (web/light/chain-mirror.ts, fed by web/light/worker/publish-chain.ts
// through structured clones, as the Worker's messages are): after an open, a join, header pages and a page that
// fails part-way, every read a page makes answers as the Worker's chain does.
import { beforeAll, describe, expect, it } from 'vitest';
import type { BlockHeader } from '../../../src/codec/header.ts';
import { blockHash } from '../../../src/consensus/pow.ts';
import { LightSyncError } from '../../../src/light/errors.ts';
import { openLightChain, type LightChain } from '../../../src/light/light-chain.ts';
import { checkJoin } from '../../../src/light/light-join.ts';
import { createMemoryHeaderStore } from '../../../src/light/light-store.ts';
import { toHex } from '../../../src/util/bytes.ts';
import { createChainMirror, type ChainMirror } from '../../../web/light/chain-mirror.ts';
import { publishingChain } from '../../../web/light/worker/publish-chain.ts';
import type { FromLightWorker } from '../../../web/light/worker/protocol.ts';
import { extendTabChain, headersAbove, proofAt, tabClock, tabParams, tipPruningPoint, trustedAt, type TabSource } from '../../helpers/light-join-fixtures.ts';

let source: TabSource;

beforeAll(async () => {
  source = await extendTabChain(700);
}, 120_000);

/** A chain in "the Worker" and its mirror in "the page", every message cloned on the way, as postMessage does. */
async function pair(): Promise<{ chain: LightChain; mirror: ChainMirror; messages: FromLightWorker[] }> {
  const mirror = createChainMirror(tabParams);
  const messages: FromLightWorker[] = [];
  const send = (message: FromLightWorker): void => {
    const copy = structuredClone(message);
    messages.push(copy);
    if (copy.type === 'blocks') mirror.apply(copy);
  };
  const chain = publishingChain(await openLightChain({ params: tabParams, store: createMemoryHeaderStore(), clock: tabClock() }), send);
  return { chain, mirror, messages };
}

function expectSameReads(chain: LightChain, mirror: ChainMirror): void {
  expect(mirror.count()).toBe(chain.count());
  expect(mirror.genesis.id).toBe(chain.genesis.id);
  expect(mirror.genesis.header).toEqual(chain.genesis.header);
  expect(mirror.selectedTip().id).toBe(chain.selectedTip().id);
  expect(mirror.joinedAt()?.id).toBe(chain.joinedAt()?.id);
  for (const block of chain.blocks()) {
    const copy = mirror.get(block.id)!;
    expect(copy, block.id).toBeDefined();
    expect([copy.height, copy.seq, copy.selectedParent?.id, copy.skip?.id]).toEqual([block.height, block.seq, block.selectedParent?.id, block.skip?.id]);
    expect(copy.header).toEqual(block.header);
    expect(mirror.mergeset(block.id)).toEqual({
      selectedParent: chain.mergeset(block.id)!.selectedParent, mergesetBlues: chain.mergeset(block.id)!.mergesetBlues, mergesetReds: chain.mergeset(block.id)!.mergesetReds,
    });
  }
  for (let height = 0; height <= chain.selectedTip().height; height++) expect(mirror.blockAtHeight(height)?.id).toBe(chain.blockAtHeight(height)?.id);
}

describe('the page’s mirror of the light node’s chain', () => {
  it('answers as the chain after an open from genesis and header pages, sent in slices of at most 500 blocks', async () => {
    const { chain, mirror, messages } = await pair();
    expectSameReads(chain, mirror);
    const headers = source.headers;
    chain.addHeaders(headers.slice(0, 100));
    chain.addHeaders(headers.slice(50, headers.length)); // overlapping: the known half is not sent again
    expectSameReads(chain, mirror);
    const blocks = messages.flatMap((m) => (m.type === 'blocks' ? m.blocks : []));
    expect(blocks.length).toBe(chain.count()); // genesis once (the reset), every header once
    expect(new Set(blocks.map((b) => b.id)).size).toBe(blocks.length);
    expect(Math.max(...messages.map((m) => (m.type === 'blocks' ? m.blocks.length : 0)))).toBe(500);
    expect(chain.count()).toBeGreaterThan(600);
  });

  it('sends the headers verified before a bad one in a page, and nothing of the bad one', async () => {
    const { chain, mirror } = await pair();
    const page = source.headers.slice(0, 40);
    const bad: BlockHeader = { ...page[30]!, timestampMs: page[30]!.timestampMs + 1 };
    expect(() => chain.addHeaders([...page.slice(0, 30), bad, ...page.slice(31)])).toThrow(LightSyncError);
    expect(chain.count()).toBe(31);
    expect(mirror.has(toHex(blockHash(page[29]!)))).toBe(true);
    expect(mirror.has(toHex(blockHash(bad)))).toBe(false);
    expectSameReads(chain, mirror);
  });

  it('starts over on a join at a pruning point and follows the headers above it', async () => {
    const { chain, mirror, messages } = await pair();
    chain.addHeaders(source.headers.slice(0, 20));
    const point = tipPruningPoint(source.chain);
    await chain.join(checkJoin(tabParams, proofAt(source.chain, point), trustedAt(source.chain, point), tabClock().nowMs()));
    const resets = messages.filter((m) => m.type === 'blocks' && m.reset);
    expect(resets.length).toBe(2);
    expect(mirror.joinedAt()?.id).toBe(point);
    expect(mirror.has(toHex(blockHash(source.headers[5]!)))).toBe(false); // the headers before the join are gone
    expectSameReads(chain, mirror);
    chain.addHeaders(headersAbove(source, point));
    expect(mirror.selectedTip().id).toBe(source.chain.selectedTip().id);
    expectSameReads(chain, mirror);
  });
});
