// Imports the seeded state's snapshot into LMDB at argv[2], chunks of argv[4] leaves, printing `applied <leaves>`
// once each chunk's batch is committed; test/integration/state/state-snapshot-crash.test.ts kills it with SIGKILL part-way.
import { openLmdbStore } from '../../server/storage/lmdb-store.ts';
import { readSnapshotChunk } from '../../src/state/snapshot.ts';
import { createSnapshotImport } from '../../src/state/snapshot-import.ts';
import { seededSnapshotState, snapshotTriePrefix } from './snapshot-fixtures.ts';

const [dir, accounts, entriesMax] = [process.argv[2]!, Number(process.argv[3]), Number(process.argv[4])];
const { trie, root } = seededSnapshotState(accounts);
const store = openLmdbStore(dir);
const importer = createSnapshotImport({ store, prefix: snapshotTriePrefix, root });
while (importer.nextKey !== undefined) {
  await importer.apply(readSnapshotChunk(trie, root, importer.nextKey, { entriesMax }));
  process.stdout.write(`applied ${importer.entries}\n`);
}
await importer.finish();
process.stdout.write('done\n');
await store.close();
