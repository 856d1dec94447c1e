// Joins the LMDB store at argv[2] (the pruning point's state already in it) from the trusted data in the JSON file
// argv[3], printing `wrote <n>` once each of the join's batches is durable and then stopping dead after batch
// argv[4], so that test/integration/chain/chain-trusted-join.test.ts kills it with SIGKILL at exactly that point; `joined` if it finished.
import { readFileSync } from 'node:fs';
import { openLmdbStore } from '../../server/storage/lmdb-store.ts';
import { openLedgerChain } from '../../src/state/ledger.ts';
import type { KvStore } from '../../src/storage/kv.ts';
import { joinClock, joinParams, trustedFromJson } from './trusted-params.ts';

const [dir, file, stopAfter] = [process.argv[2]!, process.argv[3]!, Number(process.argv[4])];
const join = trustedFromJson(readFileSync(file, 'utf8'));
const lmdb = openLmdbStore(dir);
let writes = 0;
const store: KvStore = {
  get: (key) => lmdb.get(key),
  has: (key) => lmdb.has(key),
  entries: (range) => lmdb.entries(range),
  close: () => lmdb.close(),
  async write(ops) {
    await lmdb.write(ops);
    process.stdout.write(`wrote ${++writes}\n`);
    if (writes === stopAfter) await new Promise(() => undefined);
  },
};
await openLedgerChain({ params: joinParams, store, clock: joinClock(), join });
process.stdout.write('joined\n');
