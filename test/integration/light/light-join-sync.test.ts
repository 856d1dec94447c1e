// A tab joins over a real Noise session with a real p2p node (in-memory ports): a fresh tab asks for the node's
// pruning-point proof (`getpruningproof` pages), joins at its point with the trusted data (from its port, or the node's
// `gettrusteddata` pages), then follows headers from the joined tip; a node without a proof (`notfound`) is synced
// from genesis as before; a lighter fork's proof loses to the one the tab joined with, and a forged proof is refused
// with its reason.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Chain } from '../../../src/chain/chain.ts';
import type { TrustedData } from '../../../src/chain/trusted-data.ts';
import { LightSyncError } from '../../../src/light/errors.ts';
import { openLightChain, type LightChain } from '../../../src/light/light-chain.ts';
import { joinFromNode, outgrown } from '../../../src/light/join-from-node.ts';
import { checkJoin, farBehind } from '../../../src/light/light-join.ts';
import { createMemoryHeaderStore } from '../../../src/light/light-store.ts';
import { startLightSync } from '../../../src/light/light-sync.ts';
import { createP2pNode, type P2pNode } from '../../../src/p2p/p2p-node.ts';
import { createMemoryPortPair } from '../../../src/p2p/transport.ts';
import type { PruningProof } from '../../../src/pruning-proof/pruning-proof.ts';
import { blockHash } from '../../../src/consensus/pow.ts';
import { fromHex, toHash0x, toHex } from '../../../src/util/bytes.ts';
import { systemClock } from '../../../src/util/clock.ts';
import { newStaticKey, randomBytes, realTimer } from '../../helpers/p2p-harness.ts';
import { extendTabChain, headersAbove, proofAt, tabClock, tabParams, tipPruningPoint, trustedAt, type TabSource } from '../../helpers/light-join-fixtures.ts';

let source: TabSource;
let point: string;
const nodes: P2pNode[] = [];

beforeAll(async () => {
  source = await extendTabChain(400);
  point = tipPruningPoint(source.chain);
}, 120_000);
afterAll(async () => {
  for (const node of nodes) await node.close();
});

/** A p2p node over `chain` that serves `proof` and `trusted` (a port left out: it answers `notfound`). */
function serve(chain: Chain, proof: (() => Promise<PruningProof | undefined>) | undefined, trusted?: () => Promise<TrustedData | undefined>) {
  const node = createP2pNode({
    chain, staticKey: newStaticKey(), clock: systemClock, timer: realTimer, randomBytes, userAgent: '/join-node/', listenPort: 0,
    fastSync: { ...(proof ? { pruningProof: proof } : {}), ...(trusted ? { trustedData: trusted } : {}) },
  });
  node.start();
  nodes.push(node);
  return () => {
    const [mine, theirs] = createMemoryPortPair({ schedule: (task) => setImmediate(task) });
    node.accept(theirs, { host: '127.0.0.1', port: 0, transport: 'tcp' });
    return mine;
  };
}

const openTab = (store = createMemoryHeaderStore()) => openLightChain({ params: tabParams, store, clock: tabClock() });
const sync = (chain: LightChain, port: ReturnType<ReturnType<typeof serve>>, trustedData?: (p: Uint8Array) => Promise<TrustedData>, onJoin?: (p: string) => void) =>
  startLightSync({ chain, port, staticKey: newStaticKey(), randomBytes, timer: realTimer, clock: systemClock, userAgent: '/tab/', ...(trustedData ? { trustedData } : {}), ...(onJoin ? { onJoin } : {}) });

describe('a tab joining over a p2p session', () => {
  it('verifies the node’s proof, joins at its point and follows headers from there to the node’s tip', async () => {
    const open = serve(source.chain, async () => proofAt(source.chain, point));
    const asked: string[] = [];
    const joined: string[] = [];
    const store = createMemoryHeaderStore();
    const tab = await openTab(store);
    const session = await sync(tab, open(), async (p) => {
      asked.push(toHash0x(p));
      return trustedAt(source.chain, toHash0x(p).slice(2));
    }, (p) => joined.push(p));
    const done = await session.caughtUp;
    expect(asked).toEqual([`0x${point}`]);
    expect(joined).toEqual([`0x${point}`]);
    expect(tab.joinedAt()?.id).toBe(point);
    expect(done.tipHash).toBe(toHash0x(source.chain.selectedTip().hash));
    expect(tab.count()).toBeLessThan(source.headers.length / 5);
    expect(store.join()?.pruningPoint).toEqual(fromHex(point));
    session.close();
    expect(await session.ended).toBeUndefined();

    // A reload resumes from the store: no proof asked for, the node's new blocks follow.
    const again = await openTab(store);
    expect(again.joinedAt()?.id).toBe(point);
    await extendTabChain(3, source);
    const resumed = await sync(again, open(), async () => {
      throw new Error('a resumed tab asks for no trusted data');
    });
    await resumed.caughtUp;
    expect(again.selectedTip().id).toBe(source.chain.selectedTip().id);
    resumed.close();
  });

  it('takes the trusted data from the node itself (gettrusteddata pages) when no port is given', async () => {
    const open = serve(source.chain, async () => proofAt(source.chain, point), async () => trustedAt(source.chain, point));
    const tab = await openTab();
    const session = await sync(tab, open());
    const done = await session.caughtUp;
    expect(tab.joinedAt()?.id).toBe(point);
    expect(done.tipHash).toBe(toHash0x(source.chain.selectedTip().hash));
    session.close();

    // A node with a proof but no trusted data for it: the tab follows from its own tip instead, nothing refused.
    const bare = serve(source.chain, async () => proofAt(source.chain, point));
    const fresh = await openTab();
    const plain = await sync(fresh, bare());
    await plain.caughtUp;
    expect(fresh.joinedAt()).toBeUndefined();
    expect(fresh.selectedTip().id).toBe(source.chain.selectedTip().id);
    plain.close();
  });

  it('syncs from genesis when the node serves no proof, as before', async () => {
    const open = serve(source.chain, undefined);
    const tab = await openTab();
    const session = await sync(tab, open(), async () => {
      throw new Error('no proof, no trusted data');
    });
    const done = await session.caughtUp;
    expect(tab.joinedAt()).toBeUndefined();
    expect(done.tipHash).toBe(toHash0x(source.chain.selectedTip().hash));
    expect(tab.count()).toBeGreaterThanOrEqual(source.headers.length);
    session.close();
  });

  it('verifies every header from genesis without asking for a proof when told to (fromGenesis)', async () => {
    let asked = 0;
    const open = serve(source.chain, async () => {
      asked++;
      return proofAt(source.chain, point);
    }, async () => trustedAt(source.chain, point));
    const tab = await openTab();
    const session = await startLightSync({ chain: tab, port: open(), staticKey: newStaticKey(), randomBytes, timer: realTimer, clock: systemClock, userAgent: '/tab/', fromGenesis: true });
    const done = await session.caughtUp;
    expect(tab.joinedAt()).toBeUndefined();
    // Every header it holds but genesis went through its own checks (a tip no chain block merged yet is in no page).
    expect(tab.count()).toBeGreaterThanOrEqual(source.headers.length);
    expect(done.verified).toBe(tab.count() - 1);
    expect(asked).toBe(0);
    expect(done.tipHash).toBe(toHash0x(source.chain.selectedTip().hash));
    session.close();
  });

  it('refuses a forged proof from the node with its reason, storing nothing', async () => {
    const proof = proofAt(source.chain, point);
    const level0 = [...proof.levels[0]!];
    level0[2] = { ...level0[2]!, timestampMs: level0[2]!.timestampMs + 1 };
    const open = serve(source.chain, async () => ({ levels: [level0, ...proof.levels.slice(1)] }));
    const store = createMemoryHeaderStore();
    const tab = await openTab(store);
    const session = await sync(tab, open(), async (p) => trustedAt(source.chain, toHash0x(p).slice(2)));
    const ended = await session.ended;
    expect(ended).toBeInstanceOf(LightSyncError);
    expect(ended?.reason).toBe('proof-invalid');
    expect(['header-level', 'disconnected']).toContain(ended?.proofReason);
    expect(tab.joinedAt()).toBeUndefined();
    expect(store.join()).toBeUndefined();
    expect(store.rows).toEqual([]);
  });
});

describe('which proof a joined tab takes', () => {
  it('a lighter fork’s proof loses to the one the tab joined with; the heavier one wins', async () => {
    const fork = await extendTabChain(200, undefined, tabParams, Uint8Array.from({ length: 33 }, (_, j) => (j === 0 ? 0 : 9)));
    const forkPoint = tipPruningPoint(fork.chain);
    const now = tabClock().nowMs();
    const source_ = (s: TabSource, p: string) => ({ pruningProof: async () => proofAt(s.chain, p), trustedData: async () => trustedAt(s.chain, p) });
    const nodeOf = (s: TabSource) => ({ blueScore: s.chain.selectedTip().header.blueScore, blueWork: s.chain.selectedTip().header.blueWork });

    const onLong = await openTab();
    await onLong.join(checkJoin(tabParams, proofAt(source.chain, point), trustedAt(source.chain, point), now));
    // The fork is far "ahead" only by its claim; its proof must still beat the tab's own.
    const error = await joinFromNode(onLong, source_(fork, forkPoint), { ...nodeOf(fork), blueScore: onLong.selectedTip().header.blueScore + 1_000 }, now).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LightSyncError);
    expect((error as LightSyncError).reason).toBe('proof-invalid');
    expect((error as LightSyncError).proofReason).toBe('insufficient-work');
    expect(onLong.joinedAt()?.id).toBe(point);

    const onFork = await openTab();
    await onFork.join(checkJoin(tabParams, proofAt(fork.chain, forkPoint), trustedAt(fork.chain, forkPoint), now));
    expect(farBehind(tabParams, onFork.selectedTip().header.blueScore, nodeOf(source).blueScore)).toBe(true);
    expect(await joinFromNode(onFork, source_(source, point), nodeOf(source), now)).toBe('joined');
    expect(onFork.joinedAt()?.id).toBe(point);
    // Not far behind: the tab keeps its join and asks for no proof.
    expect(await joinFromNode(onFork, { pruningProof: async () => { throw new Error('not asked'); }, trustedData: async () => { throw new Error('not asked'); } }, nodeOf(source), now)).toBe('not-needed');
  });
});

describe('what bounds the headers a tab holds', () => {
  it('a tab that followed its node for more than a pruning window joins again at the node’s point, dropping the headers below it', async () => {
    const live = await extendTabChain(150);
    const firstPoint = tipPruningPoint(live.chain);
    const now = tabClock().nowMs();
    const tab = await openTab();
    await tab.join(checkJoin(tabParams, proofAt(live.chain, firstPoint), trustedAt(live.chain, firstPoint), now));
    const node = () => ({ blueScore: live.chain.selectedTip().header.blueScore, blueWork: live.chain.selectedTip().header.blueWork });
    const from = (p: string) => ({ pruningProof: async () => proofAt(live.chain, p), trustedData: async () => trustedAt(live.chain, p) });
    await extendTabChain(150, live);
    tab.addHeaders(headersAbove(live, firstPoint).filter((h) => !tab.has(toHex(blockHash(h)))));
    expect(tab.selectedTip().id).toBe(live.chain.selectedTip().id);
    expect(outgrown(tab)).toBe(true);
    const held = tab.count();
    const nextPoint = tipPruningPoint(live.chain);
    expect(tab.has(nextPoint)).toBe(true);
    expect(await joinFromNode(tab, from(nextPoint), node(), now)).toBe('joined');
    expect(tab.joinedAt()?.id).toBe(nextPoint);
    expect(outgrown(tab)).toBe(false);
    expect(tab.count()).toBeLessThan(held);
    // A node whose point the tab holds only a little above its root: nothing to do.
    expect(await joinFromNode(tab, from(nextPoint), { ...node(), blueScore: tab.selectedTip().header.blueScore + 1_000 }, now)).toBe('not-needed');
  });
});
