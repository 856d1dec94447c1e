// Version 2 headers on real regtest nodes (`--regtest-header-version=2`, docs/pruning-proof.md "Header version 2"):
// one (archive) node mines with small depths so the committed pruning point moves, a second (pruned) one syncs over P2P and agrees on
// the tip; templates carry the new fields, and submit_block refuses a header with wrong level parents, a wrong
// pruning point or the wrong version, each with its rule; the pruned node serves a pruning-point proof that verifies. The flag's parsing is checked here too.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { loadConfig } from '../../../../server/config.ts';
import { encodeBlock } from '../../../../src/codec/block.ts';
import { decodeHeader, type BlockHeader } from '../../../../src/codec/header.ts';
import { encodeAddress } from '../../../../src/crypto/address.ts';
import { genesisHash, regtestParams } from '../../../../src/consensus/params.ts';
import { blockHash, compactToTarget, prePowHash } from '../../../../src/consensus/pow.ts';
import { searchNonceFast } from '../../../../src/consensus/pow-fast.ts';
import { fromHex, toHash0x, toHex } from '../../../../src/util/bytes.ts';
import { dialTcp } from '../../../../server/p2p/tcp-port.ts';
import { fetchPruningProof } from '../../../../src/p2p/proof-fetch.ts';
import { proofParamsOf } from '../../../../src/pruning-proof/level-dag.ts';
import { verifyPruningProof } from '../../../../src/pruning-proof/verify-proof.ts';
import { connectHarness, versionFor } from '../../../helpers/p2p-harness.ts';
import { pollFor } from '../../../helpers/poll.ts';
import { startP2pProcess, type P2pProcess } from '../../../helpers/p2p-process.ts';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
const tempDir = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'weft-header-v2-'));
  dirs.push(dir);
  return dir;
};

// With version 2 the pruning depth is consensus too (headers commit to the point): both nodes take the same.
const flags = ['--regtest-header-version=2', '--regtest-finality-depth', '6', '--regtest-merge-depth', '3', '--regtest-pruning-depth', '12', '--rate-limits=false'];

type RpcAnswer = { result?: any; error?: { code: number; message: string; data?: any } };
async function rpc(node: P2pProcess, datadir: string, method: string, params: Record<string, unknown>): Promise<RpcAnswer> {
  const key = readFileSync(join(datadir, 'api.cookie'), 'utf8').trim();
  const res = await fetch(`http://127.0.0.1:${node.httpPort}/api/v1/rpc`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': key }, body: JSON.stringify({ jsonrpc: '2.0', method, params, id: 1 }) });
  return (await res.json()) as RpcAnswer;
}

const until = <T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 120_000): Promise<T> => pollFor(what, probe, timeoutMs);

/**
 * The miner's Wasm thread sets the difficulty (about a second of its hashing a block), several times what this JS
 * search does a second; a fixed budget ran out in a CI run, so the search goes on until it finds one (the test's
 * timeout bounds it).
 */
function solved(header: BlockHeader): BlockHeader {
  const prePow = prePowHash(header);
  const target = compactToTarget(header.bits);
  for (let start = 0n; ; start += 1n << 24n) {
    const found = searchNonceFast(prePow, target, start, 1 << 24);
    if (found.nonce !== null) return { ...header, nonce: found.nonce };
  }
}

describe('--regtest-header-version', () => {
  it('sets the header version on regtest only, 1 or 2', () => {
    expect(loadConfig(['--network', 'regtest']).params.headerVersion).toBe(1);
    expect(loadConfig(['--network', 'regtest', '--regtest-header-version=2']).params.headerVersion).toBe(2);
    expect(loadConfig(['--network', 'devnet']).params.headerVersion).toBe(2);
    expect(() => loadConfig(['--network', 'devnet', '--regtest-header-version=2'])).toThrow(/regtest only/);
    expect(() => loadConfig(['--network', 'regtest', '--regtest-header-version=3'])).toThrow(/within 1..2/);
    // Genesis stays version 1: the network is the same one.
    expect(toHex(genesisHash(loadConfig(['--network', 'regtest', '--regtest-header-version=2']).params))).toBe(toHex(genesisHash(regtestParams)));
  });
});

describe('version 2 regtest nodes', () => {
  it('mine and sync version 2 blocks over P2P, and refuse tampered ones with their rule', async () => {
    const minerDir = tempDir();
    const followerDir = tempDir();
    const running: P2pProcess[] = [];
    onTestFinished(async () => void (await Promise.all(running.map((n) => n.kill()))));
    // An archive: a pruned peer has no bodies below its pruning point to serve a node syncing from genesis.
    const miner = await startP2pProcess(minerDir, ['--archive', '--mine', '--threads', '1', ...flags]);
    running.push(miner);
    const follower = await startP2pProcess(followerDir, ['--addnode', `127.0.0.1:${miner.p2pPort}`, ...flags]);
    running.push(follower);

    // Past blue score pruningDepth + 2·finalityDepth the committed pruning point has left genesis.
    await until('30 blocks on the miner', async () => (((await miner.health()).height as number) >= 30 ? true : undefined));
    expect((await rpc(miner, minerDir, 'stop_mining', {})).error).toBeUndefined();
    const tip = await until('the follower at the miner tip', async () => {
      const [a, b] = [await miner.health(), await follower.health()];
      return a.tip_hash === b.tip_hash ? a.tip_hash : undefined;
    });

    const address = encodeAddress(regtestParams.hrp, Uint8Array.from({ length: 33 }, (_, i) => (i === 0 ? 0 : i)));
    const template = (await rpc(follower, followerDir, 'get_block_template', { miner_address: address })).result;
    expect(template.version).toBe(2);
    expect(template.level_parents.length).toBeGreaterThan(0);
    expect(template.pruning_point).not.toBe(toHash0x(genesisHash(regtestParams)));
    const header = decodeHeader(fromHex(template.header.slice(2)));
    expect(header.version).toBe(2);
    expect(header.parents.map(toHash0x)).toContain(tip);
    expect(toHash0x(header.pruningPoint!)).toBe(template.pruning_point);
    const transactions = (template.transactions as string[]).map((t) => fromHex(t.slice(2)));
    const submit = async (h: BlockHeader) => rpc(follower, followerDir, 'submit_block', { block: `0x${toHex(encodeBlock({ header: solved(h), transactions }))}` });

    const { levelParents: _runs, pruningPoint: _point, ...v1 } = header;
    const runs = header.levelParents!;
    const tampered: [string, BlockHeader][] = [
      ['context.level-parents.mismatch', { ...header, levelParents: [{ levels: runs[0]!.levels, parents: [new Uint8Array(32).fill(7)] }, ...runs.slice(1)] }],
      ['context.pruning-point.mismatch', { ...header, pruningPoint: genesisHash(regtestParams) }],
      ['header.version', { ...v1, version: 1 }],
    ];
    for (const [rule, bad] of tampered) {
      const answer = await submit(bad);
      expect(answer.error, rule).toMatchObject({ code: -40005, data: { rule } });
    }
    const accepted = await submit(header);
    expect(accepted.result, JSON.stringify(accepted.error)).toMatchObject({ status: 'accepted' });
    // The block reaches the miner over P2P and both agree again.
    await until('the miner at the follower tip', async () => ((await miner.health()).tip_hash === accepted.result.hash ? true : undefined));

    // The pruned follower serves a pruning-point proof of its own point, built from the headers it kept, and it verifies.
    const point = ((await follower.health()).pruning as { pruning_point: string }).pruning_point;
    const h = await connectHarness(await dialTcp('127.0.0.1', follower.p2pPort), { network: 'regtest', version: versionFor(regtestParams) });
    const fetched = await fetchPruningProof(async (pruningPoint, offset) => {
      h.send({ type: 'getpruningproof', pruningPoint, offset });
      const page = await h.next('pruningproof', (m) => m.offset === offset);
      return { pruningPoint: page.pruningPoint, total: page.total, offset: page.offset, page: page.page };
    });
    h.session.close();
    expect(toHash0x(fetched.pruningPoint)).toBe(point);
    const verified = verifyPruningProof(fetched.proof, proofParamsOf(loadConfig(['--network', 'regtest', ...flags]).params));
    expect(toHash0x(blockHash(verified.pruningPoint))).toBe(point);
  }, 300_000);
});
