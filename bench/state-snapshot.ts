/**
 * State snapshot benchmark (docs/state-trie.md "Snapshots", docs/performance.md): a state of N accounts read chunk
 * by chunk with range proofs, encoded, decoded, verified against the root and imported into an empty trie (the
 * resumable import: verify + applyUpdates + one write per chunk with its cursor row). Baseline in the same run:
 * `trie.entries(root)` and `applyUpdates` of the same entries in the same chunk sizes, written the same way, with no
 * proofs, no codec and no verification — so the ratio is what the proofs cost a syncing node.
 *
 *   npx tsx bench/state-snapshot.ts [accounts=100000] [rounds=2]
 *
 * Source and destination tries live in LMDB in temporary directories (server/storage/lmdb-store.ts, the full
 * node's backend). Rounds alternate baseline and snapshot so a busy machine hurts both alike.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openLmdbStore } from '../server/storage/lmdb-store.ts';
import { snapshotChunkEntriesMax } from '../src/limits.ts';
import { readSnapshotChunk, verifySnapshotChunk } from '../src/state/snapshot.ts';
import { decodeSnapshotChunk, encodeSnapshotChunk } from '../src/state/snapshot-codec.ts';
import { createSnapshotImport } from '../src/state/snapshot-import.ts';
import { createStateTrie } from '../src/state/trie.ts';
import { emptyStateRoot } from '../src/state/trie-hash.ts';
import { equalBytes, toHex } from '../src/util/bytes.ts';
import { seededBytes } from '../test/helpers/snapshot-fixtures.ts';

const accounts = Number(process.argv[2] ?? 100_000);
const rounds = Number(process.argv[3] ?? 2);
const accountValueBytes = 40;
const prefix = Uint8Array.of(0x54);

const dirs: string[] = [];
const freshStore = () => {
  const dir = mkdtempSync(join(tmpdir(), 'weft-bench-snapshot-'));
  dirs.push(dir);
  return openLmdbStore(dir);
};

const rng = seededBytes(19);
const source = freshStore();
const sourceTrie = createStateTrie({ store: source, prefix });
const initial = new Map<string, Uint8Array>();
for (let i = 0; i < accounts; i++) initial.set(toHex(rng(new Uint8Array(32))), rng(new Uint8Array(accountValueBytes)));
const built = sourceTrie.applyUpdates(emptyStateRoot, initial);
await source.write(built.ops);
const root = built.root;
initial.clear();

/** No proofs: walk the source and rebuild in chunk-sized batches, one write each. */
async function baseline(): Promise<number> {
  const store = freshStore();
  const trie = createStateTrie({ store, prefix });
  const t0 = performance.now();
  let partial = emptyStateRoot;
  let batch = new Map<string, Uint8Array>();
  const flush = async () => {
    const update = trie.applyUpdates(partial, batch);
    await store.write(update.ops);
    partial = update.root;
    batch = new Map();
  };
  for (const [key, value] of sourceTrie.entries(root)) {
    batch.set(toHex(key), value);
    if (batch.size === snapshotChunkEntriesMax) await flush();
  }
  if (batch.size > 0) await flush();
  const ms = performance.now() - t0;
  if (!equalBytes(partial, root)) throw new Error('baseline rebuilt another root');
  await store.close();
  return ms;
}

interface SnapshotTimes {
  total: number;
  read: number;
  decode: number;
  verify: number;
  import: number;
  chunks: number;
  bytes: number;
}

/** Serving side (read + encode) and syncing side (decode + verify + import), as a node would run them. */
async function snapshot(): Promise<SnapshotTimes> {
  const store = freshStore();
  const importer = createSnapshotImport({ store, prefix, root });
  const times: SnapshotTimes = { total: 0, read: 0, decode: 0, verify: 0, import: 0, chunks: 0, bytes: 0 };
  while (importer.nextKey !== undefined) {
    const startKey = importer.nextKey;
    let t = performance.now();
    const wire = encodeSnapshotChunk(readSnapshotChunk(sourceTrie, root, startKey));
    times.read += performance.now() - t;
    t = performance.now();
    const chunk = decodeSnapshotChunk(wire);
    times.decode += performance.now() - t;
    t = performance.now();
    verifySnapshotChunk(root, startKey, chunk); // timed alone and left out of the total: apply verifies again
    times.verify += performance.now() - t;
    t = performance.now();
    await importer.apply(chunk);
    times.import += performance.now() - t;
    times.chunks++;
    times.bytes += wire.length;
  }
  await importer.finish();
  times.total = times.read + times.decode + times.import;
  await store.close();
  return times;
}

const rate = (ms: number) => `${Math.round((accounts * 1000) / ms).toLocaleString('en-US')} entries/s`;
console.log(`state: ${accounts} accounts of ${accountValueBytes}-byte values, root ${toHex(root).slice(0, 16)}…, chunks of ≤ ${snapshotChunkEntriesMax}`);
for (let r = 0; r < rounds; r++) {
  const base = await baseline();
  const snap = await snapshot();
  console.log(
    `round ${r + 1}: baseline entries+applyUpdates ${base.toFixed(0)} ms (${rate(base)}); ` +
      `snapshot read+encode ${snap.read.toFixed(0)} ms (${rate(snap.read)}), decode ${snap.decode.toFixed(0)} ms, verify alone ${snap.verify.toFixed(0)} ms (${rate(snap.verify)}), ` +
      `import (verify+apply+write) ${snap.import.toFixed(0)} ms (${rate(snap.import)}); ` +
      `end to end ${snap.total.toFixed(0)} ms (${rate(snap.total)}), ${snap.chunks} chunks, ${(snap.bytes / 1e6).toFixed(2)} MB on the wire; ` +
      `snapshot/baseline ${(snap.total / base).toFixed(2)}×`,
  );
}
await source.close();
for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
