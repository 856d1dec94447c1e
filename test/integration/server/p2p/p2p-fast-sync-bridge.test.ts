// The fast-sync messages through a `weft node` process's browser bridge (ws://…/p2p), as a tab would use them: the
// state of the node's pruning point is downloaded chunk by chunk and rebuilt to the same root; a root the node does
// not keep and the proof (a version 1 regtest node has no level parents to build one from) are answered `notfound`.
// This also covers the node's wiring of its state trie into the snapshot port (server/p2p/start-p2p.ts).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebSocket } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Block } from '../../../../src/codec/block.ts';
import { regtestParams } from '../../../../src/consensus/params.ts';
import { InvType } from '../../../../src/p2p/messages/inventory.ts';
import { fetchSnapshot, type SnapshotChunkSource } from '../../../../src/p2p/snapshot-fetch.ts';
import { ledgerKeys } from '../../../../src/state/ledger-rows.ts';
import { openLedgerChain } from '../../../../src/state/ledger.ts';
import { createSnapshotImport } from '../../../../src/state/snapshot-import.ts';
import { createMemoryStore } from '../../../../src/storage/memory-store.ts';
import { equalBytes, toHex } from '../../../../src/util/bytes.ts';
import { systemClock } from '../../../../src/util/clock.ts';
import { webSocketPort } from '../../../../server/p2p/ws-bridge.ts';
import { connectHarness, versionFor } from '../../../helpers/p2p-harness.ts';
import { startP2pProcess, type P2pProcess } from '../../../helpers/p2p-process.ts';
import { buildDatadir, extendChain } from '../../../helpers/regtest-dag.ts';

const depthFlags = ['--regtest-finality-depth', '6', '--regtest-merge-depth', '3', '--regtest-pruning-depth', '12'];
const smallDepths = Object.freeze({ ...regtestParams, finalityDepth: 6, mergeDepth: 3, pruningDepth: 12 });

let node: P2pProcess;
let datadir: string;
let pointHash: Uint8Array;
let root: Uint8Array;

beforeAll(async () => {
  // One miner per block, so the pruning point's state holds many accounts.
  const { chain: builder } = await openLedgerChain({ params: regtestParams, store: createMemoryStore(), clock: systemClock });
  const blocks: Block[] = [];
  for (let tag = 1; tag <= 30; tag++) blocks.push(...(await extendChain(builder, 1, tag)));
  datadir = mkdtempSync(join(tmpdir(), 'weft-fast-sync-bridge-'));
  await buildDatadir(datadir, blocks);
  // The node opens that store with small depths: its pruning point moves up at once, as this chain's does.
  const { chain: expected } = await openLedgerChain({ params: smallDepths, store: createMemoryStore(), clock: systemClock });
  for (const block of blocks) void expected.addBlock(block);
  await expected.settled();
  const point = expected.pruning()!.pruningPoint;
  pointHash = point.hash;
  root = point.header.stateRoot;
  node = await startP2pProcess(datadir, depthFlags);
}, 120_000);

afterAll(async () => {
  await node?.stop();
  if (datadir) rmSync(datadir, { recursive: true, force: true });
});

describe('fast sync over the /p2p WebSocket bridge', () => {
  it("serves its pruning point's state in chunks that rebuild the same root; refuses other roots and the proof", async () => {
    const pruning = (await node.health()).pruning as { pruning_point: string };
    expect(pruning.pruning_point.replace(/^0x/, '')).toBe(toHex(pointHash));
    const ws = new WebSocket(`ws://127.0.0.1:${node.wsPort}/p2p`);
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    const h = await connectHarness(webSocketPort(ws), { network: 'regtest', version: versionFor(regtestParams) });

    const source: SnapshotChunkSource = {
      async chunk(r, from) {
        h.send({ type: 'getsnapshotchunk', root: r, from, entriesMax: 3 });
        const answer = await h.next('snapshotchunk', (m) => equalBytes(m.root, r) && equalBytes(m.from, from));
        return answer.chunk;
      },
    };
    const target = createSnapshotImport({ store: createMemoryStore(), prefix: ledgerKeys.trieprefix, root });
    const result = await fetchSnapshot(source, target);
    expect(toHex(result.root)).toBe(toHex(root));
    expect(result.entries).toBeGreaterThan(6);
    expect(result.chunks).toBeGreaterThan(2);

    const unknown = new Uint8Array(32).fill(9);
    h.send({ type: 'getsnapshotchunk', root: unknown, from: new Uint8Array(32), entriesMax: 0 });
    const refusal = await h.next('notfound', (m) => m.items.some((i) => i.kind === InvType.stateRoot));
    expect(refusal.items).toEqual([{ kind: InvType.stateRoot, hash: unknown }]);

    h.send({ type: 'getpruningproof', pruningPoint: new Uint8Array(32), offset: 0 });
    const noProof = await h.next('notfound', (m) => m.items.some((i) => i.kind === InvType.pruningProof));
    expect(noProof.items).toEqual([{ kind: InvType.pruningProof, hash: new Uint8Array(32) }]);
    expect(h.received.some((m) => m.type === 'reject')).toBe(false);
    h.session.close();
  }, 60_000);
});
