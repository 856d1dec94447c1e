// A full node recovers on its own from a poisoned join (issue 30, docs/security.md "Joining the network",
// server/node/rejoin.ts), on real processes: an archive miner and a pruned node make an honest version 2 regtest
// (rules v1, so nothing commits to the acceptance record); a liar in this process (the real session code) serves the
// honest proof, the honest trusted data with `emitted = the supply cap` in its record, and the honest state chunks.
// A new node whose addnode list names the liar first joins from it (equal proofs go to addnode order), meets the
// honest node's blocks refused with body.state-root.mismatch, and — no restart, no operator — logs the wrong join,
// wipes its chain store, joins again by proof without the liar and ends at the honest tip with the honest state root.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { loadConfig } from '../../../../server/config.ts';
import type { TrustedData } from '../../../../src/chain/trusted-data.ts';
import { emissionCapUnits } from '../../../../src/consensus/emission.ts';
import { blockHash } from '../../../../src/consensus/pow.ts';
import type { FastSyncPorts } from '../../../../src/p2p/fast-sync.ts';
import { decodeAcceptanceRecord, encodeAcceptanceRecord } from '../../../../src/state/acceptance-record.ts';
import { ledgerKeys } from '../../../../src/state/ledger-rows.ts';
import { openLedgerChain } from '../../../../src/state/ledger.ts';
import { readSnapshotChunk } from '../../../../src/state/snapshot.ts';
import { createSnapshotImport } from '../../../../src/state/snapshot-import.ts';
import { createStateTrie } from '../../../../src/state/trie.ts';
import { createMemoryStore } from '../../../../src/storage/memory-store.ts';
import { toHash0x, toHex } from '../../../../src/util/bytes.ts';
import { systemClock } from '../../../../src/util/clock.ts';
import { newStaticKey, randomBytes, realTimer } from '../../../helpers/p2p-harness.ts';
import { startP2pProcess, type P2pProcess } from '../../../helpers/p2p-process.ts';
import { pollFor } from '../../../helpers/poll.ts';
import { startTcpP2pNode, type TcpP2pNode } from '../../../helpers/tcp-p2p-node.ts';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
const tempDir = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'weft-rejoin-'));
  dirs.push(dir);
  return dir;
};

// Version 2 headers (proofs) under rules v1: the record a joiner takes is unproven, so a lie gets through the join.
const flags = ['--regtest-header-version=2', '--regtest-finality-depth', '6', '--regtest-merge-depth', '3', '--regtest-pruning-depth', '12', '--rate-limits=false'];
const params = loadConfig(['--network', 'regtest', ...flags]).params;

async function fastSyncServer(ports: FastSyncPorts): Promise<TcpP2pNode> {
  const { chain } = await openLedgerChain({ params, store: createMemoryStore(), clock: systemClock });
  return startTcpP2pNode({ chain, staticKey: newStaticKey(), clock: systemClock, timer: realTimer, randomBytes, userAgent: '/liar/', fastSync: ports, blockSync: false });
}

const tipOf = async (node: P2pProcess): Promise<string> => (await node.health()).tip_hash as string;
const stateRootOf = async (node: P2pProcess, hash: string): Promise<string> => (await node.rpc('get_block', { hash })).state_root as string;

describe('a node that joined from a lying peer', () => {
  it('notices, wipes its chain store and joins again by proof without the liar, ending on the honest chain', async () => {
    expect(params.activations.rulesV2).toBeGreaterThan(1_000_000);
    const running: P2pProcess[] = [];
    const closers: { close(): Promise<void> }[] = [];
    onTestFinished(async () => {
      await Promise.all(running.map((n) => n.kill()));
      for (const c of closers) await c.close();
    });
    const miner = await startP2pProcess(tempDir(), ['--archive', '--mine', '--threads', '1', ...flags]);
    running.push(miner);
    const pruned = await startP2pProcess(tempDir(), ['--addnode', `127.0.0.1:${miner.p2pPort}`, ...flags]);
    running.push(pruned);
    await pollFor('30 blocks and a pruning point above genesis', async () => {
      const pointScore = ((await pruned.health()).pruning as { pruning_point_blue_score?: number }).pruning_point_blue_score ?? 0;
      return ((await miner.health()).height as number) >= 30 && pointScore > 8 ? true : undefined;
    }, 120_000);
    await miner.rpc('stop_mining', {});
    const tip = await pollFor('the pruned node at the miner tip', async () => {
      const [a, b] = [await tipOf(miner), await tipOf(pruned)];
      return a === b ? a : undefined;
    });

    // The honest proof, trusted data and state, fetched from the pruned node once; the liar serves them with a lie.
    const client = await fastSyncServer({});
    closers.push(client);
    await client.node.connect('127.0.0.1', pruned.p2pPort);
    await pollFor('the client connected', async () => (client.node.peerCount() === 1 ? true : undefined));
    const { proof, pruningPoint } = await client.node.fetchPruningProof(pruned.nodeId);
    const trusted = await client.node.fetchTrustedData(pruned.nodeId, pruningPoint);
    const point = toHex(trusted.pruningPoint);
    const root = trusted.blocks.find((b) => toHex(blockHash(b.header)) === point)!.header.stateRoot;
    const copy = createMemoryStore();
    await client.node.fetchSnapshot(pruned.nodeId, createSnapshotImport({ store: copy, prefix: ledgerKeys.trieprefix, root }));
    const trie = createStateTrie({ store: copy, prefix: ledgerKeys.trieprefix });
    const record = decodeAcceptanceRecord(trusted.stateRecord!);
    const lie: TrustedData = { ...trusted, stateRecord: encodeAcceptanceRecord({ ...record, emitted: emissionCapUnits }) };
    const liar = await fastSyncServer({ pruningProof: async () => proof, trustedData: async () => lie, snapshotChunk: async (r, from, limits) => readSnapshotChunk(trie, r, from, limits) });
    closers.push(liar);
    const liarId = toHex(liar.node.nodeId);

    const joiner = await startP2pProcess(tempDir(), ['--addnode', `127.0.0.1:${liar.port}`, '--addnode', `127.0.0.1:${pruned.p2pPort}`, ...flags]);
    running.push(joiner);
    const lines = joiner.proc.lines;
    // The first join took the liar's data (equal proofs: addnode order).
    expect(lines.find((l) => l.event === 'fast_join_phase' && l.phase === 'trusted-data')?.peer).toBe(liarId.slice(0, 16));
    expect(lines.find((l) => l.msg === 'chain loaded')?.joinedAt).toBe(toHash0x(trusted.pruningPoint));

    // The honest node's blocks are refused for their state root; the guard compares records and names the liar.
    const wrong = await joiner.proc.waitFor((l) => l.event === 'join_wrong', 120_000);
    expect(wrong).toMatchObject({ reason: 'poisoned', servedBy: liarId, reportedBy: pruned.nodeId, level: 50 });
    await joiner.proc.waitFor((l) => l.event === 'chain_store_wiped', 60_000);
    const excluding = await joiner.proc.waitFor((l) => l.event === 'fast_join_excluding', 60_000);
    expect(excluding.peers).toEqual([liarId.slice(0, 16)]);
    await joiner.proc.waitFor((l) => l.event === 'rejoined', 120_000);
    const joins = lines.filter((l) => l.event === 'fast_join_phase' && l.phase === 'trusted-data');
    expect(joins.map((l) => l.peer)).toEqual([liarId.slice(0, 16), pruned.nodeId.slice(0, 16)]);

    // On the honest chain now, on the same ports: its tip and state root are the miner's.
    await pollFor('the joiner at the honest tip', async () => ((await tipOf(joiner)) === tip ? true : undefined), 120_000);
    expect(await stateRootOf(joiner, tip)).toBe(await stateRootOf(pruned, tip));
    // The honest reporter was never punished.
    expect(lines.filter((l) => l.event === 'peer_banned' && l.peer === pruned.nodeId.slice(0, 16))).toEqual([]);
    expect(lines.filter((l) => l.event === 'join_wrong')).toHaveLength(1);
  }, 300_000);
});
