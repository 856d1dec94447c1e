/**
 * The RPC's MempoolPort (src/rpc/ports.ts) over the mempool (src/mempool/mempool.ts): submit (send_transaction,
 * send_raw_transaction), lookups with docs/design.md "Consensus" statuses (pending, or dropped with the pool's reason), pending
 * lists per address, and admission events for the pending_transactions topic.
 */
import { encodeTransaction, txHash } from '../../src/kinds/transaction-codec.ts';
import type { PoolEntry } from '../../src/mempool/entry.ts';
import type { Mempool } from '../../src/mempool/mempool.ts';
import type { MempoolPort, TransactionRecord, TransactionStatus } from '../../src/rpc/ports.ts';
import { touches } from '../../src/kinds/parties.ts';

function record(entry: PoolEntry, status: TransactionStatus): TransactionRecord {
  // Pending transactions have used no energy yet: `energy_used` is what acceptance charged (docs/design.md "State, accounts and energy").
  return { hash: entry.hash, tx: entry.tx, status, timestampMs: entry.addedMs, energyUsed: 0n };
}

/**
 * `submit` admits through the node's durable path when it has one (server/node/mempool-service.ts: the hash is
 * acknowledged only once the transaction is journaled), else straight into the pool (tests of bare pools).
 */
export function createMempoolPort(
  mempool: Mempool,
  submitDurably: (bytes: Uint8Array) => Promise<PoolEntry> = (bytes) => mempool.add(bytes),
  routeOwn?: (txHash: Uint8Array, hops: number) => void,
): MempoolPort {
  return {
    async submit(tx, options) {
      // The stem is decided before admission: admission is what the relay acts on (src/p2p/dandelion.ts).
      if (options?.mixnetHops !== undefined) routeOwn?.(txHash(tx), options.mixnetHops);
      const entry = await submitDurably(encodeTransaction(tx));
      return { hash: entry.hash, status: 'pending' };
    },
    get(hash) {
      const found = mempool.status(hash);
      return found === undefined ? undefined : record(found.entry, found.status);
    },
    pending(address) {
      const entries = mempool.pending();
      const touching = address === undefined ? entries : entries.filter((e) => touches(e.tx, address));
      return touching.map((e) => record(e, 'pending'));
    },
    size: () => mempool.size,
    onAdmitted(listener) {
      return mempool.subscribe((event) => {
        if (event.type === 'added') listener(record(event.entry, 'pending'));
      });
    },
  };
}
