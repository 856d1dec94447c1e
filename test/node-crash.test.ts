// Crash safety (issue: chain core): a mining node killed with SIGKILL loses no block it reported committed; the
// store's indexes agree with the DAG on reopen; the restarted node keeps mining on top of what it had.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openChain } from '../src/chain/chain.ts';
import { chainKeys, storedBlockOrder } from '../src/chain/chain-store.ts';
import { devnetParams } from '../src/consensus/params.ts';
import { blockIdFromHex } from '../src/chain/chain.ts';
import { systemClock } from '../src/util/clock.ts';
import { openLmdbStore } from '../server/storage/lmdb-store.ts';
import { startNodeProcess, type LogLine } from './helpers/node-process.ts';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const committed = (line: LogLine) => line.event === 'block_committed';

describe('kill -9 while mining', () => {
  it('keeps every committed block, with consistent indexes, and resumes mining after restart', async () => {
    const datadir = mkdtempSync(join(tmpdir(), 'weft-crash-'));
    dirs.push(datadir);
    const args = ['--network', 'devnet', '--mine', '--threads', '1', '--datadir', datadir, '--rpc-port', '0', '--ws-port', '0', '--p2p-port', '0'];

    const first = startNodeProcess(args);
    await first.waitFor((l) => committed(l) && (l.height as number) >= 12, 90_000);
    first.child.kill('SIGKILL');
    const exit = await first.exited;
    expect(exit.signal).toBe('SIGKILL');
    const reported = first.lines.filter(committed).map((l) => blockIdFromHex(l.hash as string));
    expect(reported.length).toBeGreaterThanOrEqual(12);

    const store = openLmdbStore(join(datadir, 'chain'));
    const chain = await openChain({ params: devnetParams, store, clock: systemClock });
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
