// Snapshot import survives kill -9 (issue 19): a child process importing into LMDB is killed with SIGKILL part-way;
// reopening the same store resumes from the cursor row at a whole-chunk boundary at or past every chunk the child
// reported committed, and finishes with the proven root and exactly the state's entries.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it, onTestFinished } from 'vitest';
import { openLmdbStore } from '../../../server/storage/lmdb-store.ts';
import { readSnapshotChunk } from '../../../src/state/snapshot.ts';
import { createSnapshotImport } from '../../../src/state/snapshot-import.ts';
import { createStateTrie } from '../../../src/state/trie.ts';
import { toHex } from '../../../src/util/bytes.ts';
import { seededSnapshotState, snapshotTriePrefix } from '../../helpers/snapshot-fixtures.ts';
import { repoRoot } from '../../vectors.ts';

const accounts = 6_000;
const entriesMax = 16;

describe('state snapshot import after kill -9', () => {
  it('resumes from the cursor row and finishes with the same root', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weft-snapshot-crash-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const child = spawn(process.execPath, ['--import', 'tsx', resolve(repoRoot, 'test/helpers/snapshot-import-child.ts'), dir, String(accounts), String(entriesMax)], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    onTestFinished(() => void child.kill('SIGKILL'));
    const exited = new Promise<NodeJS.Signals | null>((done) => child.on('exit', (_code, signal) => done(signal)));
    let reported = 0;
    await new Promise<void>((killed, failed) => {
      createInterface({ input: child.stdout! }).on('line', (line) => {
        if (line === 'done') failed(new Error('the child finished before it was killed'));
        const applied = /^applied (\d+)$/.exec(line);
        if (applied === null || reported >= 20 * entriesMax) return;
        reported = Number(applied[1]);
        if (reported >= 20 * entriesMax) {
          child.kill('SIGKILL');
          killed();
        }
      });
    });
    expect(await exited).toBe('SIGKILL');

    const { trie, root, model } = seededSnapshotState(accounts);
    const store = openLmdbStore(dir);
    onTestFinished(() => store.close());
    const importer = createSnapshotImport({ store, prefix: snapshotTriePrefix, root });
    expect(importer.entries).toBeGreaterThanOrEqual(reported);
    expect(importer.entries % entriesMax).toBe(0);
    expect(importer.entries).toBeLessThan(accounts);
    const done = [...model.keys()].sort();
    expect(toHex(importer.nextKey!) > done[importer.entries - 1]!).toBe(true);
    expect(toHex(importer.nextKey!) <= done[importer.entries]!).toBe(true);
    while (importer.nextKey !== undefined) await importer.apply(readSnapshotChunk(trie, root, importer.nextKey, { entriesMax: 512 }));
    expect(toHex(await importer.finish())).toBe(toHex(root));
    const rebuilt = [...createStateTrie({ store, prefix: snapshotTriePrefix }).entries(root)].map(([k, v]) => `${toHex(k)}:${toHex(v)}`);
    expect(rebuilt).toEqual(done.map((k) => `${k}:${toHex(model.get(k)!)}`));
  }, 60_000);
});
