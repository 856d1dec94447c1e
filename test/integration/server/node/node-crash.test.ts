// Crash safety (issue: chain core): a mining node killed with SIGKILL loses no block it reported committed; the
// store's indexes agree with the DAG on reopen; the restarted node keeps mining on top of what it had.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { openChain } from '../../../../src/chain/chain.ts';
import { chainKeys, storedBlockOrder } from '../../../../src/chain/chain-store.ts';
import { regtestParams } from '../../../../src/consensus/params.ts';
import { blockIdFromHex } from '../../../../src/chain/chain.ts';
import { systemClock } from '../../../../src/util/clock.ts';
import { openLmdbStore } from '../../../../server/storage/lmdb-store.ts';
import { startNodeProcess, type LogLine } from '../../../helpers/node-process.ts';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const committed = (line: LogLine) => line.event === 'block_committed';

describe('kill -9 while mining', () => {
  it('keeps every committed block, with consistent indexes, and resumes mining after restart', async () => {
    const datadir = mkdtempSync(join(tmpdir(), 'weft-crash-'));
    dirs.push(datadir);
    // Regtest: its first blocks come within a second (genesis at the pow limit), so the kill lands while blocks are
    // still being committed in a burst; devnet's one block a second only made the wait longer.
    const args = ['--network', 'regtest', '--mine', '--threads', '1', '--datadir', datadir, '--rpc-port', '0', '--ws-port', '0', '--p2p-port', '0'];

    const first = startNodeProcess(args);
    await first.waitFor((l) => committed(l) && (l.height as number) >= 12, 90_000);
    first.child.kill('SIGKILL');
    const exit = await first.exited;
    expect(exit.signal).toBe('SIGKILL');
    const reported = first.lines.filter(committed).map((l) => blockIdFromHex(l.hash as string));
    expect(reported.length).toBeGreaterThanOrEqual(12);

    const store = openLmdbStore(join(datadir, 'chain'));
    const chain = await openChain({ params: regtestParams, store, clock: systemClock });
    for (const id of reported) expect(chain.has(id), `committed block ${id} lost`).toBe(true);
    // Indexes agree: every ordered row has its header and block rows, and the chain index walks selected parents.
    let rows = 0;
    for (const { hash } of storedBlockOrder(store)) {
      rows++;
      expect(store.has(chainKeys.header(hash))).toBe(true);
      expect(store.has(chainKeys.block(hash))).toBe(true);
      expect(store.has(chainKeys.seq(hash))).toBe(true);
    }
    expect(rows).toBe(chain.blockCount());
    const tip = chain.selectedTip();
    for (let walk = tip; walk.selectedParent; walk = walk.selectedParent) {
      expect(chain.blockAtHeight(walk.height)!.id).toBe(walk.id);
    }
    const heightBefore = tip.height;
    await store.close();

    const second = startNodeProcess(args);
    const loaded = await second.waitFor((l) => l.msg === 'chain loaded', 60_000);
    expect(loaded.blocks).toBe(rows);
    await second.waitFor((l) => committed(l) && (l.height as number) > heightBefore, 90_000);
    second.child.kill('SIGTERM');
    const stopped = await second.exited;
    expect(stopped.code).toBe(0);
  }, 240_000);
});

describe('kill -9 under a send loop', () => {
  it('keeps every acknowledged transaction: after five kills each is confirmed or pending', async () => {
    const datadir = mkdtempSync(join(tmpdir(), 'weft-crash-tx-'));
    dirs.push(datadir);
    const args = ['--network', 'regtest', '--mine', '--threads', '1', '--datadir', datadir, '--rpc-port', '0', '--ws-port', '0', '--p2p-port', '0'];
    const acknowledged: string[] = [];
    let running: ReturnType<typeof startNodeProcess> | undefined;
    // A failed assertion must not leave a mining node behind.
    onTestFinished(() => void running?.child.kill('SIGKILL'));
    let restored = 0;
    for (let round = 0; round < 5; round++) {
      const node = startNodeProcess(args);
      running = node;
      const port = (await node.waitFor((l) => l.msg === 'http listening', 60_000)).port as number;
      const restore = node.lines.find((l) => l.msg === 'mempool restored from its journal');
      restored += (restore?.restored as number | undefined) ?? 0;
      const key = readFileSync(join(datadir, 'api.cookie'), 'utf8').trim();
      const rpc = async (method: string, params: unknown): Promise<{ result?: any; error?: { code: number; message: string } }> => {
        const res = await fetch(`http://127.0.0.1:${port}/api/v1/rpc`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': key }, body: JSON.stringify({ jsonrpc: '2.0', method, params, id: 1 }) });
        return (await res.json()) as { result?: any; error?: { code: number; message: string } };
      };
      // Every hash acknowledged before any earlier kill is still known: confirmed (in a chain block) or pending.
      for (const hash of acknowledged) {
        const answer = await rpc('get_transaction', { hash });
        expect(answer.error, `acknowledged ${hash} lost after kill ${round}`).toBeUndefined();
        expect(['pending', 'confirmed', 'final']).toContain(answer.result.status);
      }
      const from = (await rpc('get_mining_info', {})).result.reward_address as string;
      const to = (await rpc('create_address', { wallet_name: 'default' })).result.address as string;
      for (let waited = 0; ((await rpc('get_balance', { address: from })).result?.balance ?? 0) < 1; waited++) {
        expect(waited, 'mined coins never arrived').toBeLessThan(600);
        await new Promise((r) => setTimeout(r, 100));
      }
      // Send until a few are acknowledged, then kill at once: the last ones are still in the pool, unmined.
      const sentBefore = acknowledged.length;
      while (acknowledged.length - sentBefore < 12) {
        const sent = await rpc('send_transaction', { from, to, amount: 0.001, fee: 0.0001 });
        if (sent.result?.hash) acknowledged.push(sent.result.hash as string);
        else expect(sent.error?.code, JSON.stringify(sent.error)).toBe(-40003); // a balance still settling: retry
      }
      node.child.kill('SIGKILL');
      expect((await node.exited).signal).toBe('SIGKILL');
    }
    // The kills did catch transactions in the pool, and the journal brought them back.
    expect(restored).toBeGreaterThan(0);
  }, 300_000);
});
