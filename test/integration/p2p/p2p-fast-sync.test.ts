// Fast sync over real TCP sessions on 127.0.0.1 (issue 19): a pruned full node serves the state of its pruning point
// in snapshot chunks, and a joining node downloads and imports it into LMDB, checking every chunk against the root;
// the download resumes from the import's cursor on a new session; a lying server (the real node code with a port
// that alters a leaf) is refused and banned; roots the node does not keep are refused clearly; a proof port's
// proof travels in pages.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Chain } from '../../../src/chain/chain.ts';
import type { BlockHeader } from '../../../src/codec/header.ts';
import { regtestParams, type NetworkParams } from '../../../src/consensus/params.ts';
import { blockHash } from '../../../src/consensus/pow.ts';
import { P2pErrorCode } from '../../../src/p2p/errors.ts';
import type { FastSyncPorts } from '../../../src/p2p/fast-sync.ts';
import { p2pFastSyncQueuedRequestsMax, p2pFastSyncRequestRefillMs, p2pFastSyncRequestsBurst, p2pPruningProofPageBytesMax } from '../../../src/p2p/limits.ts';
import { createP2pNode, type P2pNode } from '../../../src/p2p/p2p-node.ts';
import { DataUnavailableError } from '../../../src/p2p/protocol-errors.ts';
import { createSnapshotServing } from '../../../src/p2p/snapshot-serve.ts';
import { encodePruningProof } from '../../../src/p2p/pruning-proof-codec.ts';
import { encodeTrustedData } from '../../../src/p2p/trusted-data-codec.ts';
import { buildTrustedData } from '../../../src/chain/trusted-data.ts';
import { ledgerKeys } from '../../../src/state/ledger-rows.ts';
import { openLedgerChain } from '../../../src/state/ledger.ts';
import { SnapshotError } from '../../../src/state/snapshot-errors.ts';
import { readSnapshotChunk } from '../../../src/state/snapshot.ts';
import type { Message } from '../../../src/p2p/messages.ts';
import { createSnapshotImport } from '../../../src/state/snapshot-import.ts';
import { createStateTrie } from '../../../src/state/trie.ts';
import { createMemoryStore } from '../../../src/storage/memory-store.ts';
import { toHex } from '../../../src/util/bytes.ts';
import { systemClock, type Clock } from '../../../src/util/clock.ts';
import { dialTcp } from '../../../server/p2p/tcp-port.ts';
import { openLmdbStore, type LmdbStore } from '../../../server/storage/lmdb-store.ts';
import { connectHarness, newStaticKey, randomBytes, realTimer, versionOfChain } from '../../helpers/p2p-harness.ts';
import { startTcpP2pNode, type TcpP2pNode } from '../../helpers/tcp-p2p-node.ts';
import { until } from '../../helpers/p2p-memory-net.ts';
import { extendChain } from '../../helpers/regtest-dag.ts';

// Small depths so that 40 blocks put the pruning point well above genesis (as --regtest-pruning-depth does).
const params: NetworkParams = Object.freeze({ ...regtestParams, finalityDepth: 6, mergeDepth: 3, pruningDepth: 12 });
const chunkEntries = 4;

const dirs: string[] = [];
const tempDir = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'weft-fast-sync-'));
  dirs.push(dir);
  return dir;
};

function listen(chain: Chain, fastSync?: FastSyncPorts, clock: Clock = systemClock): Promise<TcpP2pNode> {
  return startTcpP2pNode({ chain, staticKey: newStaticKey(), clock, timer: realTimer, randomBytes, userAgent: '/fast-sync-test/', ...(fastSync ? { fastSync } : {}) });
}

/** A joining node's p2p side, connected over TCP to `server`; ready once both sides see each other. */
async function joiner(chain: Chain, server: TcpP2pNode): Promise<{ node: P2pNode; peerId: string }> {
  const node = createP2pNode({ chain, staticKey: newStaticKey(), clock: systemClock, timer: realTimer, randomBytes, userAgent: '/joiner/', listenPort: 0, dial: dialTcp });
  await node.connect('127.0.0.1', server.port);
  await until(() => node.peerCount() === 1, 10_000, 'the joiner to be ready');
  return { node, peerId: toHex(server.node.nodeId) };
}

let serverStore: LmdbStore;
let chain: Chain;
let clientChain: Chain;
let root: Uint8Array;
let honest: TcpP2pNode;
const open: { close(): Promise<void> }[] = [];

beforeAll(async () => {
  serverStore = openLmdbStore(join(tempDir(), 'chain'));
  ({ chain } = await openLedgerChain({ params, store: serverStore, clock: systemClock }));
  // One miner per block: the pruning point's state has one account per block below it.
  const blocks = [];
  for (let tag = 1; tag <= 40; tag++) blocks.push(...(await extendChain(chain, 1, tag)));
  await chain.pruningSettled();
  ({ chain: clientChain } = await openLedgerChain({ params, store: createMemoryStore(), clock: systemClock }));
  for (const block of blocks) void clientChain.addBlock(block);
  await clientChain.settled();
  const point = chain.pruning()!.pruningPoint;
  expect(point.height).toBeGreaterThan(10);
  root = point.header.stateRoot;
  const serving = createSnapshotServing({ chain, trie: createStateTrie({ store: serverStore, prefix: ledgerKeys.trieprefix }) });
  honest = await listen(chain, { snapshotChunk: serving.snapshotChunk });
}, 120_000);

afterEach(async () => {
  for (const o of open.splice(0)) await o.close();
});

afterAll(async () => {
  await honest?.close();
  await serverStore?.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function importInto(store: LmdbStore) {
  return createSnapshotImport({ store, prefix: ledgerKeys.trieprefix, root });
}

describe('snapshot chunks over TCP', () => {
  it("downloads and imports the whole state of the server's pruning point, rebuilding the same root", async () => {
    const { node, peerId } = await joiner(clientChain, honest);
    open.push(node);
    const store = openLmdbStore(join(tempDir(), 'import'));
    open.push(store);
    const result = await node.fetchSnapshot(peerId, importInto(store), { entriesMax: chunkEntries });
    expect(toHex(result.root)).toBe(toHex(root));
    expect(result.entries).toBeGreaterThan(2 * chunkEntries);
    expect(result.chunks).toBe(Math.ceil(result.entries / chunkEntries) + (result.entries % chunkEntries === 0 ? 1 : 0));
    // The imported trie answers every account the server's does.
    const mine = createStateTrie({ store, prefix: ledgerKeys.trieprefix });
    const theirs = createStateTrie({ store: serverStore, prefix: ledgerKeys.trieprefix });
    expect([...mine.entries(root, new Uint8Array(32))].map(([k, v]) => toHex(k) + toHex(v))).toEqual(
      [...theirs.entries(root, new Uint8Array(32))].map(([k, v]) => toHex(k) + toHex(v)),
    );
  }, 60_000);

  it('resumes from the import cursor on a new session after the first one is cut', async () => {
    const dir = tempDir();
    let store = openLmdbStore(join(dir, 'import'));
    const first = await joiner(clientChain, honest);
    let seen = 0;
    const cut = first.node.fetchSnapshot(first.peerId, importInto(store), {
      entriesMax: chunkEntries,
      onChunk: () => {
        if (++seen === 3) void first.node.close();
      },
    });
    await expect(cut).rejects.toMatchObject({ code: P2pErrorCode.SessionClosed });
    await store.close();
    // A new process would reopen the store: the cursor row says where the import stopped.
    store = openLmdbStore(join(dir, 'import'));
    open.push(store);
    const resumed = importInto(store);
    expect(resumed.entries).toBe(3 * chunkEntries);
    const second = await joiner(clientChain, honest);
    open.push(second.node);
    const result = await second.node.fetchSnapshot(second.peerId, resumed, { entriesMax: chunkEntries });
    expect(toHex(result.root)).toBe(toHex(root));
    expect(result.chunks).toBe(Math.ceil((result.entries - 3 * chunkEntries) / chunkEntries) + (result.entries % chunkEntries === 0 ? 1 : 0));
  }, 60_000);

  it('refuses a tampered chunk from a lying server, writes nothing of it, bans the server, and finishes from an honest one', async () => {
    const serving = createSnapshotServing({ chain, trie: createStateTrie({ store: serverStore, prefix: ledgerKeys.trieprefix }) });
    let served = 0;
    const liar = await listen(chain, {
      async snapshotChunk(r, from, limits) {
        const chunk = await serving.snapshotChunk(r, from, limits);
        if (chunk === undefined || ++served < 2) return chunk;
        const [first, ...rest] = chunk.leaves;
        const value = first!.value.slice();
        value[0]! ^= 1;
        return { ...chunk, leaves: [{ key: first!.key, value }, ...rest] };
      },
    });
    open.push(liar);
    const store = openLmdbStore(join(tempDir(), 'import'));
    open.push(store);
    const target = importInto(store);
    const { node, peerId } = await joiner(clientChain, liar);
    open.push(node);
    const failure = await node.fetchSnapshot(peerId, target, { entriesMax: chunkEntries }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SnapshotError);
    expect((failure as SnapshotError).peerFault).toBe(true);
    expect((failure as SnapshotError).reason).toBe('chunk-root-mismatch');
    expect(target.entries).toBe(chunkEntries);
    await until(() => node.isBanned(`node:${peerId}`) && node.peerCount() === 0, 10_000, 'the liar to be banned');
    await expect(node.connect('127.0.0.1', liar.port)).rejects.toThrow(/banned/);
    // The same import goes on with an honest peer from the chunk the liar spoiled.
    const next = await joiner(clientChain, honest);
    open.push(next.node);
    const result = await next.node.fetchSnapshot(next.peerId, target, { entriesMax: chunkEntries });
    expect(toHex(result.root)).toBe(toHex(root));
  }, 60_000);

  it('refuses clearly a root the node does not keep (below the pruning point, or unknown), and stays connected', async () => {
    const { node, peerId } = await joiner(clientChain, honest);
    open.push(node);
    const below = chain.blockAtHeight(2)!.header.stateRoot;
    for (const other of [below, new Uint8Array(32).fill(7)]) {
      const store = createMemoryStore();
      const failure = await node.fetchSnapshot(peerId, createSnapshotImport({ store, prefix: ledgerKeys.trieprefix, root: other })).catch((e: unknown) => e);
      expect(failure).toBeInstanceOf(DataUnavailableError);
      expect((failure as DataUnavailableError).message).toContain(toHex(other));
    }
    // The tip's state is above the pruning point: kept, and served.
    const tipRoot = chain.selectedTip().header.stateRoot;
    const result = await node.fetchSnapshot(peerId, createSnapshotImport({ store: createMemoryStore(), prefix: ledgerKeys.trieprefix, root: tipRoot }));
    expect(toHex(result.root)).toBe(toHex(tipRoot));
    expect(node.peerCount()).toBe(1);
    expect(node.isBanned(`node:${peerId}`)).toBe(false);
  }, 60_000);
});

describe('serving allowance', () => {
  it('answers a burst of requests at once, then one per refill interval; requests queued beyond the bound are dropped', async () => {
    // The server's clock stands still unless moved, so its token bucket refills only when the test says.
    let now = Date.now();
    const serving = createSnapshotServing({ chain, trie: createStateTrie({ store: serverStore, prefix: ledgerKeys.trieprefix }) });
    const server = await listen(chain, { snapshotChunk: serving.snapshotChunk }, { nowMs: () => now });
    open.push(server);
    const h = await connectHarness(await dialTcp('127.0.0.1', server.port), { network: params.name, version: versionOfChain(chain) });
    open.push({ close: async () => h.session.close() });
    const ask = (n: number) => {
      const from = new Uint8Array(32);
      from[31] = n;
      h.send({ type: 'getsnapshotchunk', root, from, entriesMax: 1 });
    };
    const answers = () => h.received.filter((m) => m.type === 'snapshotchunk').length;
    for (let n = 0; n < p2pFastSyncRequestsBurst; n++) {
      ask(n);
      await until(() => answers() === n + 1, 5_000, `answer ${n}`);
    }
    // The allowance is spent: ten more requests, of which the queue holds its bound and the rest are dropped.
    for (let n = 0; n < 10; n++) ask(100 + n);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(answers()).toBe(p2pFastSyncRequestsBurst);
    now += p2pFastSyncRequestRefillMs;
    await until(() => answers() === p2pFastSyncRequestsBurst + 1, 5_000, 'one answer per refill');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(answers()).toBe(p2pFastSyncRequestsBurst + 1);
    now += 100 * p2pFastSyncRequestRefillMs;
    await until(() => answers() === p2pFastSyncRequestsBurst + p2pFastSyncQueuedRequestsMax, 5_000, 'the queued requests');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(answers()).toBe(p2pFastSyncRequestsBurst + p2pFastSyncQueuedRequestsMax);
    expect(h.received.some((m) => m.type === 'reject')).toBe(false);
  }, 60_000);
});

describe('answers nobody asked for', () => {
  it('disconnect and ban the sender of an unsolicited snapshotchunk or pruningproof (protocol violation)', async () => {
    const trie = createStateTrie({ store: serverStore, prefix: ledgerKeys.trieprefix });
    const chunk = readSnapshotChunk(trie, root, new Uint8Array(32), { entriesMax: 1 });
    const unsolicited: Message[] = [
      { type: 'snapshotchunk', root, from: new Uint8Array(32), chunk },
      { type: 'pruningproof', pruningPoint: root, total: 3, offset: 0, page: Uint8Array.of(1, 2, 3) },
    ];
    for (const message of unsolicited) {
      const staticKey = newStaticKey();
      const harness = await connectHarness(await dialTcp('127.0.0.1', honest.port), { network: params.name, version: versionOfChain(chain), staticKey });
      harness.send(message);
      const reject = await harness.next('reject');
      expect(reject.code).toBe(P2pErrorCode.ProtocolViolation);
      expect(reject.banScore).toBe(100);
      await harness.closed;
      await until(() => honest.node.isBanned(`node:${toHex(staticKey.publicKey)}`), 5_000, 'the ban');
    }
  }, 30_000);
});

describe('pruning proofs over TCP', () => {
  it('answers notfound when the node has no proof to give (no builder yet)', async () => {
    const { node, peerId } = await joiner(clientChain, honest);
    open.push(node);
    await expect(node.fetchPruningProof(peerId)).rejects.toBeInstanceOf(DataUnavailableError);
    expect(node.peerCount()).toBe(1);
  }, 30_000);

  it('carries a proof larger than one page in fixed pages, reassembled to the same levels', async () => {
    // Not a valid proof (the verifier is another module's): 6,000 distinct headers, shared by three levels.
    const headers: BlockHeader[] = Array.from({ length: 10_000 }, (_, i) => ({ ...params.genesis, nonce: BigInt(i + 1) }));
    const proof = { levels: [headers, headers.slice(0, 3_000), headers.slice(0, 3_000)] };
    let built = 0;
    const server = await listen(chain, {
      async pruningProof() {
        built++;
        return proof;
      },
    });
    open.push(server);
    const { node, peerId } = await joiner(clientChain, server);
    open.push(node);
    const fetched = await node.fetchPruningProof(peerId);
    expect(toHex(fetched.pruningPoint)).toBe(toHex(blockHash(headers.at(-1)!)));
    expect(fetched.proof.levels.map((l) => l.length)).toEqual([10_000, 3_000, 3_000]);
    expect(fetched.proof.levels[2]![2_999]!.nonce).toBe(3_000n);
    expect(fetched.proof.levels[1]![0]).toBe(fetched.proof.levels[0]![0]);
    expect(built).toBe(1);
    expect(encodePruningProof(proof).length).toBeGreaterThan(p2pPruningProofPageBytesMax); // two pages at least
  }, 60_000);

  it('serves trusted data at its pruning point in pages, built once per point; another point is answered notfound', async () => {
    const point = chain.pruning()!.pruningPoint;
    const trusted = buildTrustedData(chain, point.id);
    // Padded past one page with anticone-size entries the codec carries as they are (not a valid set: the codec's test).
    const padded = { ...trusted, blocks: trusted.blocks.map((b, i) => (i > 0 ? b : { ...b, ghostdag: { ...b.ghostdag, bluesAnticoneSizes: new Map(Array.from({ length: 1_000 }, (_, j) => [j.toString(16).padStart(64, '0'), j])) } })) };
    const big = { ...padded, blocks: Array.from({ length: 40 }, () => padded.blocks).flat() };
    let built = 0;
    const server = await listen(chain, {
      async trustedData() {
        built++;
        return big;
      },
    });
    open.push(server);
    const { node, peerId } = await joiner(clientChain, server);
    open.push(node);
    expect(encodeTrustedData(big).length).toBeGreaterThan(p2pPruningProofPageBytesMax);
    const fetched = await node.fetchTrustedData(peerId, point.hash);
    expect(fetched.blocks.length).toBe(big.blocks.length);
    expect(fetched.blocks.at(-1)).toEqual(big.blocks.at(-1));
    expect(fetched.blocks[0]!.ghostdag.bluesAnticoneSizes.size).toBe(1_000);
    expect(built).toBe(1);
    await expect(node.fetchTrustedData(peerId, new Uint8Array(32).fill(7))).rejects.toBeInstanceOf(DataUnavailableError);
    expect(node.peerCount()).toBe(1);
  }, 60_000);
});
