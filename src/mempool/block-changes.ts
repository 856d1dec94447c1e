/**
 * What a block's transactions can change in the state the pool reads (candidates.ts): the accounts they debit — their
 * payers, whose nonce and balance move — and the records named by their conflict keys (key images spent,
 * confidential outputs created). Credits are left out on purpose: receiving coins never turns a passing check into
 * a failing one. Records no conflict key names (escrows, agent accounts, contract state) are covered by the pool
 * rechecking every run that read such a record on every block (pool-state.ts `volatile`).
 */
import { decodeTransaction } from '../kinds/transaction-codec.ts';
import { blake3 } from '../crypto/blake3.ts';
import { kindOf } from '../kinds/registry.ts';
import { toHex } from '../util/bytes.ts';
import type { StateChange } from './candidates.ts';
import type { PoolEntry } from './entry.ts';

/** Conflict keys that are record keys (pool-state.ts `recordKey`) of records the transaction writes. */
const writtenRecordPrefixes = ['key_image:', 'confidential_output:'];

export interface BlockChanges extends StateChange {
  readonly payers: ReadonlySet<string>;
  readonly records: ReadonlySet<string>;
}

/**
 * The changes of a block carrying `transactions` (canonical bytes). `known` looks a transaction up by its id (the
 * pool already decoded most of what a block carries), so only the rest is decoded.
 */
export function blockChanges(transactions: readonly Uint8Array[], known: (hash: Uint8Array) => PoolEntry | undefined): BlockChanges {
  const payers = new Set<string>();
  const records = new Set<string>();
  for (const bytes of transactions) {
    const entry = known(blake3(bytes));
    let payer: string;
    let conflicts: readonly string[];
    if (entry !== undefined) {
      payer = entry.sender;
      conflicts = entry.conflicts;
    } else {
      const tx = decodeTransaction(bytes);
      const kind = kindOf(tx);
      payer = toHex(kind.spend(tx).payer);
      conflicts = kind.conflictKeys(tx);
    }
    payers.add(payer);
    for (const key of conflicts) if (writtenRecordPrefixes.some((prefix) => key.startsWith(prefix))) records.add(key);
  }
  return { payers, records };
}

/** The union of several blocks' changes. */
export function mergeChanges(parts: readonly BlockChanges[]): BlockChanges {
  const payers = new Set<string>();
  const records = new Set<string>();
  for (const part of parts) {
    for (const p of part.payers) payers.add(p);
    for (const r of part.records) records.add(r);
  }
  return { payers, records };
}
