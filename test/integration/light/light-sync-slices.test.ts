// A page of headers from the node is verified in slices of wall time, with the event loop turning in between: in a
// browser tab, one page (up to 2,000 headers) verified in one go was one long task that froze the explorer for about
// a second while it opened (Lighthouse's total blocking time, issue 32). Real chain, real Noise session, real p2p node;
// the slicing itself is held by test/unit/util/time-slices.test.ts.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Block } from '../../../src/codec/block.ts';
import { regtestParams } from '../../../src/consensus/params.ts';
import { openLightChain } from '../../../src/light/light-chain.ts';
import { createMemoryHeaderStore } from '../../../src/light/light-store.ts';
import { startLightSync } from '../../../src/light/light-sync.ts';
import { openLedgerChain } from '../../../src/state/ledger.ts';
import { createMemoryStore } from '../../../src/storage/memory-store.ts';
import { systemClock } from '../../../src/util/clock.ts';
import { newStaticKey, randomBytes, realTimer } from '../../helpers/p2p-harness.ts';
import { createMemoryNet, type MemoryNet } from '../../helpers/p2p-memory-net.ts';
import { extendChain } from '../../helpers/regtest-dag.ts';

const blockCount = 450;
let blocks: Block[];
let net: MemoryNet;

beforeAll(async () => {
  const { chain } = await openLedgerChain({ params: regtestParams, store: createMemoryStore(), clock: systemClock });
  blocks = await extendChain(chain, blockCount);
});
afterAll(async () => net?.closeAll());

it('verifies a page of headers in slices, letting timers run between them, and still reaches the tip', async () => {
  net = createMemoryNet();
  const server = await net.addNode(blocks);
  const light = await openLightChain({ params: regtestParams, store: createMemoryHeaderStore(), clock: systemClock });
  // Record how many timer turns had run by each verification call (the real method still runs).
  let turns = 0;
  let ticking = true;
  const tick = (): void => void (ticking && (turns++, setTimeout(tick, 0)));
  const calls: { turns: number }[] = [];
  const addHeaders = light.addHeaders.bind(light);
  light.addHeaders = (headers) => (calls.push({ turns }), addHeaders(headers));
  tick();
  const sync = await startLightSync({ chain: light, port: net.open(server.port), staticKey: newStaticKey(), randomBytes, timer: realTimer, clock: systemClock, userAgent: '/slices-test/' });
  const done = await sync.caughtUp;
  ticking = false;
  sync.close();
  await sync.ended;
  expect(done.verified).toBeGreaterThanOrEqual(blockCount - 1);
  expect(light.selectedTip().id).toBe(server.chain.selectedTip().id);
  // The node sent the headers in one page (fewer than 2,000); the tab verified them over several turns of the event
  // loop: calls made between the same two timer turns are one slice.
  const slices = new Set(calls.map((c) => c.turns));
  expect(slices.size).toBeGreaterThanOrEqual(3);
});
