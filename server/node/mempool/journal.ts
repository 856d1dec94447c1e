/**
 * The pool's journal in the node's store (src/mempool/journal.ts): a submitted transaction is acknowledged only once
 * its row is durable, and at start the journal is readmitted; what the pool refuses then is forgotten.
 */
import { blake3 } from '../../../src/crypto/blake3.ts';
import type { PoolEntry } from '../../../src/mempool/entry.ts';
import type { NodeMempoolState } from './state.ts';

/** The journal follows the pool: a row for every transaction in it, whatever brought it (RPC, a peer, a reorg). */
export function journalFollowsPool(state: NodeMempoolState): () => void {
  const { journal, logger } = state;
  const journalFailed = (error: unknown) => logger.error({ err: error }, 'mempool journal write failed');
  return state.pool.subscribe((event) => {
    if (event.type === 'added') journal.append(event.entry.hash, event.entry.bytes).catch(journalFailed);
    else journal.remove(event.entry.hash).catch(journalFailed);
  });
}

/** Admits a transaction and resolves once it is journaled (durable): only then may its hash be acknowledged. */
export async function submit(state: NodeMempoolState, bytes: Uint8Array): Promise<PoolEntry> {
  const entry = await state.pool.add(bytes);
  await state.journal.durable(entry.hash);
  state.rebroadcast.track(entry);
  return entry;
}

/** Readmits the journal's transactions (start-up, before any submit); refused ones are forgotten. */
export async function restore(state: NodeMempoolState): Promise<{ readonly restored: number; readonly refused: number }> {
  const { journal } = state;
  // The journal holds canonical bytes, so BLAKE3 of them is the pool's hash (src/mempool/entry.ts).
  const journaled = journal.load(blake3);
  if (journaled.length === 0) return { restored: 0, refused: 0 };
  const results = await state.pool.readmit(journaled.map((row) => row.bytes));
  let refused = 0;
  for (const [i, result] of results.entries()) {
    if (result.ok) {
      state.rebroadcast.track(result.entry);
      continue;
    }
    refused++;
    await journal.remove(journaled[i]!.hash);
  }
  state.logger.info({ restored: journaled.length - refused, refused }, 'mempool restored from its journal');
  return { restored: journaled.length - refused, refused };
}
