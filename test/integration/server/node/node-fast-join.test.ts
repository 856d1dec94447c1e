// Joining a network of any age on real processes (issue 19, docs/pruning-proof.md "Serving and joining"): an archive
// miner mines past several pruning windows of a version 2 regtest, a pruned node follows it; a new node whose peers
// are that pruned node and three liars (the real session code, serving a tampered proof, tampered trusted data, and a
// bad state chunk) refuses each liar, joins by proof from the pruned node, ends with its tip and state root, and
// follows new blocks; a node killed with SIGKILL in the middle of the state (one chunk in) restarts, resumes from the
// import's cursor and finishes the join.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { loadConfig } from '../../../../server/config.ts';
import { fastJoinSkipReason } from '../../../../server/node/fast-join.ts';
import type { TrustedData } from '../../../../src/chain/trusted-data.ts';
import type { BlockHeader } from '../../../../src/codec/header.ts';
import { blockHash } from '../../../../src/consensus/pow.ts';
import { encodeAddress, standardAddress } from '../../../../src/crypto/address.ts';
import { publicKeyFromPrivate } from '../../../../src/crypto/keys.ts';
import { toHash0x } from '../../../../src/util/bytes.ts';
import type { FastSyncPorts } from '../../../../src/p2p/fast-sync.ts';
import type { PruningProof } from '../../../../src/pruning-proof/pruning-proof.ts';
import { ledgerKeys } from '../../../../src/state/ledger-rows.ts';
import { openLedgerChain } from '../../../../src/state/ledger.ts';
import { readSnapshotChunk } from '../../../../src/state/snapshot.ts';
import { createSnapshotImport } from '../../../../src/state/snapshot-import.ts';
import { createStateTrie } from '../../../../src/state/trie.ts';
import { createMemoryStore } from '../../../../src/storage/memory-store.ts';
import { systemClock } from '../../../../src/util/clock.ts';
import { newStaticKey, randomBytes, realTimer } from '../../../helpers/p2p-harness.ts';
import { startP2pProcess, type P2pProcess } from '../../../helpers/p2p-process.ts';
import { startNodeProcess } from '../../../helpers/node-process.ts';
import { pollFor } from '../../../helpers/poll.ts';
import { startTcpP2pNode, type TcpP2pNode } from '../../../helpers/tcp-p2p-node.ts';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
const tempDir = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'weft-fast-join-'));
  dirs.push(dir);
  return dir;
};

const flags = ['--regtest-header-version=2', '--regtest-finality-depth', '6', '--regtest-merge-depth', '3', '--regtest-pruning-depth', '12', '--rate-limits=false'];
const params = loadConfig(['--network', 'regtest', ...flags]).params;

/** A p2p node in this process on a placeholder chain that only answers fast-sync questions, from `ports`. */
async function fastSyncServer(ports: FastSyncPorts): Promise<TcpP2pNode> {
  const { chain } = await openLedgerChain({ params, store: createMemoryStore(), clock: systemClock });
  return startTcpP2pNode({ chain, staticKey: newStaticKey(), clock: systemClock, timer: realTimer, randomBytes, userAgent: '/liar/', fastSync: ports, blockSync: false });
}

const tipOf = async (node: P2pProcess): Promise<string> => (await node.health()).tip_hash as string;
const stateRootOf = async (node: P2pProcess, hash: string): Promise<string> => (await node.rpc('get_block', { hash })).state_root as string;

describe('when a node joins by proof', () => {
  it('only on an empty store of a pruned version 2 node with peers and --fast-sync on', () => {
    const config = (extra: string[]) => loadConfig(['--network', 'regtest', '--addnode', '127.0.0.1:1', ...flags, ...extra]);
    const empty = createMemoryStore();
    expect(fastJoinSkipReason(config([]), empty)).toBeUndefined();
    expect(config(['--fast-sync=false']).fastSync).toBe(false);
    expect(fastJoinSkipReason(config(['--fast-sync=false']), empty)).toMatch(/fast-sync=false/);
    expect(fastJoinSkipReason(config(['--archive']), empty)).toMatch(/archive/);
    expect(fastJoinSkipReason(loadConfig(['--network', 'regtest', '--addnode', '127.0.0.1:1']), empty)).toMatch(/version 1/);
    expect(fastJoinSkipReason(loadConfig(['--network', 'regtest', ...flags]), empty)).toMatch(/addnode/);
  });
});

describe('joining by proof', () => {
  it('joins from a pruned peer past three liars, ends with its tip and state, follows new blocks, and resumes after SIGKILL', async () => {
    const running: P2pProcess[] = [];
    const closers: { close(): Promise<void> }[] = [];
    onTestFinished(async () => {
      await Promise.all(running.map((n) => n.kill()));
      for (const c of closers) await c.close();
    });
    const minerDir = tempDir();
    const prunedDir = tempDir();
    const miner = await startP2pProcess(minerDir, ['--archive', '--mine', '--threads', '1', ...flags]);
    running.push(miner);
    const pruned = await startP2pProcess(prunedDir, ['--addnode', `127.0.0.1:${miner.p2pPort}`, ...flags]);
    running.push(pruned);
    // Another miner address from now on: once the pruning point lies above the switch, the state there holds more
    // than one account, so it comes in more than one chunk when a peer cuts chunks of one entry (the kill below).
    const address = encodeAddress(params.hrp, standardAddress(publicKeyFromPrivate(Uint8Array.from({ length: 32 }, (_, i) => i + 1))));
    await miner.rpc('stop_mining', {});
    await miner.rpc('start_mining', { miner_address: address, threads: 1 });
    const switchedAt = (await miner.health()).blue_score as number;
    // Past blue score 40 the pruning point (depth 12, finality 6) is several windows above genesis.
    await pollFor('40 blocks on the miner and its pruning point past the switch', async () => {
      const pointScore = ((await pruned.health()).pruning as { pruning_point_blue_score?: number }).pruning_point_blue_score ?? 0;
      return ((await miner.health()).height as number) >= 40 && pointScore > switchedAt + 2 ? true : undefined;
    }, 120_000);
    await miner.rpc('stop_mining', {});
    const tip = await pollFor('the pruned node at the miner tip', async () => {
      const [a, b] = [await tipOf(miner), await tipOf(pruned)];
      return a === b ? a : undefined;
    });
    const point = ((await pruned.health()).pruning as { pruning_point: string }).pruning_point;

    // What the honest pruned node serves, fetched over p2p once, to build the liars from.
    const client = await fastSyncServer({});
    closers.push(client);
    await client.node.connect('127.0.0.1', pruned.p2pPort);
    await pollFor('the client connected', async () => (client.node.peerCount() === 1 ? true : undefined));
    const peerId = pruned.nodeId;
    const { proof } = await client.node.fetchPruningProof(peerId);
    const trusted = await client.node.fetchTrustedData(peerId, (await client.node.fetchPruningProof(peerId)).pruningPoint);
    const copy = createMemoryStore();
    const root = trusted.blocks.find((b) => b.transactions && toHex0x(b) === point)!.header.stateRoot;
    await client.node.fetchSnapshot(peerId, createSnapshotImport({ store: copy, prefix: ledgerKeys.trieprefix, root }), { entriesMax: 4 });
    const trie = createStateTrie({ store: copy, prefix: ledgerKeys.trieprefix });

    const honestProof = async (): Promise<PruningProof> => proof;
    const honestTrusted = async (): Promise<TrustedData> => trusted;
    const tamperedProof = async (): Promise<PruningProof> => ({ levels: proof.levels.map((l, i) => (i === 0 ? [{ ...l[0]!, nonce: l[0]!.nonce + 1n }, ...l.slice(1)] : l)) });
    const tamperedTrusted = async (): Promise<TrustedData> => ({
      ...trusted,
      blocks: trusted.blocks.map((b) => (toHex0x(b) === point ? { ...b, ghostdag: { ...b.ghostdag, mergesetBlues: b.ghostdag.mergesetBlues.slice(1) } } : b)),
    });
    const liars = [
      await fastSyncServer({ pruningProof: tamperedProof, trustedData: honestTrusted }),
      await fastSyncServer({ pruningProof: honestProof, trustedData: tamperedTrusted }),
      await fastSyncServer({
        pruningProof: honestProof,
        trustedData: honestTrusted,
        async snapshotChunk(r, from, limits) {
          const chunk = readSnapshotChunk(trie, r, from, limits);
          const [first, ...rest] = chunk.leaves;
          const value = first!.value.slice();
          value[0]! ^= 1;
          return { ...chunk, leaves: [{ key: first!.key, value }, ...rest] };
        },
      }),
    ];
    closers.push(...liars);

    const joinerDir = tempDir();
    const addnodes = [...liars.map((l) => `127.0.0.1:${l.port}`), `127.0.0.1:${pruned.p2pPort}`].flatMap((a) => ['--addnode', a]);
    const joiner = await startP2pProcess(joinerDir, [...addnodes, ...flags]);
    running.push(joiner);
    const lines = joiner.proc.lines;
    const refused = lines.filter((l) => l.event === 'fast_join_peer_refused');
    expect(refused.map((l) => String(l.err))).toEqual([expect.stringMatching(/proof/i), expect.stringMatching(/trusted data refused/), expect.stringMatching(/snapshot|chunk/i)]);
    expect(lines.filter((l) => l.event === 'fast_join_phase').map((l) => l.phase)).toContain('state');
    expect(lines.find((l) => l.msg === 'chain loaded')?.joinedAt).toBe(point);
    await pollFor('the joiner at the tip', async () => ((await tipOf(joiner)) === tip ? true : undefined));
    expect(await stateRootOf(joiner, tip)).toBe(await stateRootOf(pruned, tip));

    // Killed in the middle of the state: a peer that serves one-entry chunks and stalls after the first holds the
    // download there; the next start, with the honest peer, goes on from the import's cursor and joins.
    expect(readSnapshotChunk(trie, root, new Uint8Array(32), {}).leaves.length).toBeGreaterThanOrEqual(2);
    let served = 0;
    const stalling = await fastSyncServer({
      pruningProof: honestProof,
      trustedData: honestTrusted,
      snapshotChunk: async (r, from) => (served++ === 0 ? readSnapshotChunk(trie, r, from, { entriesMax: 1 }) : new Promise(() => undefined)),
    });
    closers.push(stalling);
    const killedDir = tempDir();
    const first = startNodeProcess(['--network', 'regtest', '--datadir', killedDir, '--rpc-port', '0', '--ws-port', '0', '--p2p-port', '0', '--log-level', 'info', '--addnode', `127.0.0.1:${stalling.port}`, ...flags]);
    await first.waitFor((l) => l.event === 'fast_join_state_progress' && l.chunks === 1, 60_000);
    // Meanwhile the RPC port answers /health with the join's progress, and everything else with 503.
    const joinPort = (await first.waitFor((l) => l.event === 'join_health_listening')).port as number;
    const joining = await fetch(`http://127.0.0.1:${joinPort}/health`);
    expect(joining.status).toBe(503);
    expect(await joining.json()).toMatchObject({ status: 'joining', ready: false, join: { phase: 'state', pruning_point: point, state_entries: 1, state_chunks: 1 } });
    expect((await fetch(`http://127.0.0.1:${joinPort}/api/v1/rpc`, { method: 'POST', body: '{}' })).status).toBe(503);
    first.child.kill('SIGKILL');
    await first.exited;
    const resumed = await startP2pProcess(killedDir, ['--addnode', `127.0.0.1:${pruned.p2pPort}`, ...flags]);
    running.push(resumed);
    const resumedState = resumed.proc.lines.find((l) => l.event === 'fast_join_phase' && l.phase === 'state');
    expect(resumedState?.resumedAtEntries).toBe(1);
    // Once joined, the API holds the port: /health is the node's own.
    expect((await resumed.health()).status).not.toBe('joining');
    expect(resumed.proc.lines.find((l) => l.msg === 'chain loaded')?.joinedAt).toBe(point);
    await pollFor('the restarted joiner at the tip', async () => ((await tipOf(resumed)) === tip ? true : undefined));

    // Both joined nodes follow new blocks.
    await miner.rpc('start_mining', { threads: 1 });
    const newTip = await pollFor('new blocks everywhere', async () => {
      const t = await tipOf(miner);
      return t !== tip && (await tipOf(joiner)) === t && (await tipOf(resumed)) === t ? t : undefined;
    });
    expect(await stateRootOf(joiner, newTip)).toBe(await stateRootOf(miner, newTip));
  }, 240_000);
});

function toHex0x(block: { readonly header: BlockHeader }): string {
  return toHash0x(blockHash(block.header));
}
