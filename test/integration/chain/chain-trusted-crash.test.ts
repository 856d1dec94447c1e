// A join survives kill -9 (docs/pruning-proof.md "Trusted data"): a child process joining an LMDB store is killed with
// SIGKILL right after each of the join's batches but the last; the store then refuses to open without the trusted
// data (never half-trusted) and, opened with it, joins from scratch and follows the source to the same tip and state.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { openLmdbStore } from '../../../server/storage/lmdb-store.ts';
import { buildTrustedData, type TrustedData } from '../../../src/chain/trusted-data.ts';
import type { Block } from '../../../src/codec/block.ts';
import type { BlockId } from '../../../src/consensus/ghostdag.ts';
import { blockHash } from '../../../src/consensus/pow.ts';
import { openLedgerChain } from '../../../src/state/ledger.ts';
import { toHex } from '../../../src/util/bytes.ts';
import { blocksAbove, buildSourceBlocks, copyState, feedAll, joinClock, joinParams, openSource, trustedFromJson, trustedToJson, type SourceNode } from '../../helpers/trusted-fixtures.ts';
import { repoRoot } from '../../vectors.ts';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
const tempDir = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'weft-join-crash-'));
  dirs.push(dir);
  return dir;
};

let source: SourceNode;
let blocks: Block[];
let point: BlockId;
let trusted: TrustedData;

beforeAll(async () => {
  source = await openSource(false);
  blocks = await buildSourceBlocks(source, 60);
  point = source.chain.pruning()!.pruningPoint.id;
  trusted = buildTrustedData(source.chain, point);
}, 60_000);

const idsOf = (data: TrustedData): BlockId[] => data.blocks.map((b) => toHex(blockHash(b.header)));

describe('a join killed with SIGKILL', () => {
  it('leaves a store refused without its data that joins from scratch with it, whichever batch it stopped after', async () => {
    const file = join(tempDir(), 'trusted.json');
    writeFileSync(file, trustedToJson(trusted));
    expect(trustedFromJson(readFileSync(file, 'utf8'))).toEqual(trusted);
    for (const stopAfter of [1, 2]) {
      const dir = tempDir();
      const seeded = openLmdbStore(dir);
      await copyState(source.store, seeded, source.chain.get(point)!.header.stateRoot);
      await seeded.close();
      const child = spawn(process.execPath, ['--import', 'tsx', resolve(repoRoot, 'test/helpers/trusted-join-child.ts'), dir, file, String(stopAfter)], {
        cwd: repoRoot,
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      onTestFinished(() => void child.kill('SIGKILL'));
      const exited = new Promise<NodeJS.Signals | null>((done) => child.on('exit', (_code, signal) => done(signal)));
      await new Promise<void>((killed, failed) => {
        createInterface({ input: child.stdout! }).on('line', (line) => {
          if (line === 'joined') failed(new Error('the child joined before it was killed'));
          if (line === `wrote ${stopAfter}`) {
            child.kill('SIGKILL');
            killed();
          }
        });
      });
      expect(await exited).toBe('SIGKILL');

      const store = openLmdbStore(dir);
      await expect(openLedgerChain({ params: joinParams, store, clock: joinClock() })).rejects.toMatchObject({ reason: 'import-state' });
      const joined = await openLedgerChain({ params: joinParams, store, clock: joinClock(), join: trusted });
      expect(joined.chain.selectedTip().id).toBe(point);
      await feedAll(joined.chain, blocksAbove(source.chain, blocks, point, new Set(idsOf(trusted))));
      expect(joined.chain.selectedTip().id).toBe(source.chain.selectedTip().id);
      expect(joined.chain.selectedTip().header.stateRoot).toEqual(source.chain.selectedTip().header.stateRoot);
      await joined.chain.stopPruning();
      await store.close();
    }
  }, 30_000);
});

