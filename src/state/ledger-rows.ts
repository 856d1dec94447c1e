/**
 * The ledger's tables in the chain's KvStore (docs/state.md "Stored rows"), one letter each beside the chain's own
 * (H, B, O, S, C, M), and bounded caches of the two things acceptance reads over and over: acceptance records and
 * decoded block transactions.
 *
 *   T | node hash                         → state-trie node (immutable, content-addressed; src/state/trie.ts)
 *   A | block hash                        → acceptance record of the block's mergeset (immutable)
 *   X | tx hash | block hash              → u32 BE position of the transaction in that block (immutable)
 *   R | tx hash                           → the transaction's bytes (immutable)
 *   G | block hash                        → hash of the chain block that merged it   (follows the selected chain)
 *   Y | address [33] | height u64 BE | ordinal u32 BE
 *                                         → tx hash [32] | merged block [32] | position u32 BE | direction u8
 *   V | address [33] | height u64 BE | ordinal u32 BE
 *                                         → merged block hash [32]: a block reward the address received from the
 *                                           acceptance of the chain block at that height (follows the selected chain)
 *   E | accepting block | tx hash         → a contract transaction's receipt (src/kinds/contract-receipt.ts; immutable)
 *                                                                                    (follows the selected chain)
 *   W | block hash                        → the trie nodes the block's update wrote, 32-byte hashes back to back
 *                                           (pruned nodes only; src/state/state-pruning.ts)
 */
import type { BlockTransaction } from '../chain/state-port.ts';
import type { Chain } from '../chain/chain.ts';
import { decodeTransaction } from '../kinds/transaction-codec.ts';
import { blake3 } from '../crypto/blake3.ts';
import { assert } from '../errors.ts';
import type { KvStore } from '../storage/kv.ts';
import { concatBytes, fromHex } from '../util/bytes.ts';
import { decodeAcceptanceRecord, zeroTotals, type AcceptanceRecord } from './acceptance-record.ts';
import { ledgerRecordCacheBlocksMax, ledgerTxCacheBlocksMax } from './ledger-limits.ts';

export const ledgerTables = { trie: 0x54, acceptance: 0x41, inclusion: 0x58, txBytes: 0x52, mergedBy: 0x47, history: 0x59, reward: 0x56, receipt: 0x45, writeLog: 0x57 } as const;

/** Direction of a history row, from the address's point of view. */
export const HistoryDirection = { Out: 1, In: 2, Self: 3 } as const;
export type HistoryDirection = (typeof HistoryDirection)[keyof typeof HistoryDirection];

const tag = (t: number) => Uint8Array.of(t);

function u64be(n: number): Uint8Array {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, BigInt(n));
  return out;
}

function u32be(n: number): Uint8Array {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, n);
  return out;
}

export const ledgerKeys = {
  trieprefix: tag(ledgerTables.trie),
  acceptance: (blockHash: Uint8Array) => concatBytes(tag(ledgerTables.acceptance), blockHash),
  inclusion: (txHash: Uint8Array, blockHash: Uint8Array) => concatBytes(tag(ledgerTables.inclusion), txHash, blockHash),
  inclusionPrefix: (txHash: Uint8Array) => concatBytes(tag(ledgerTables.inclusion), txHash),
  txBytes: (txHash: Uint8Array) => concatBytes(tag(ledgerTables.txBytes), txHash),
  mergedBy: (blockHash: Uint8Array) => concatBytes(tag(ledgerTables.mergedBy), blockHash),
  history: (address: Uint8Array, height: number, ordinal: number) => concatBytes(tag(ledgerTables.history), address, u64be(height), u32be(ordinal)),
  historyPrefix: (address: Uint8Array) => concatBytes(tag(ledgerTables.history), address),
  reward: (address: Uint8Array, height: number, ordinal: number) => concatBytes(tag(ledgerTables.reward), address, u64be(height), u32be(ordinal)),
  rewardPrefix: (address: Uint8Array) => concatBytes(tag(ledgerTables.reward), address),
  /** A contract transaction's receipt as accepted by a chain block (node-local, not in the state trie). */
  receipt: (acceptingBlock: Uint8Array, txHash: Uint8Array) => concatBytes(tag(ledgerTables.receipt), acceptingBlock, txHash),
  receiptPrefix: (acceptingBlock: Uint8Array) => concatBytes(tag(ledgerTables.receipt), acceptingBlock),
  writeLog: (blockHash: Uint8Array) => concatBytes(tag(ledgerTables.writeLog), blockHash),
  writeLogPrefix: tag(ledgerTables.writeLog),
};

export interface HistoryRow {
  readonly txHash: Uint8Array;
  readonly mergedBlock: Uint8Array;
  readonly position: number;
  readonly direction: HistoryDirection;
}

export function encodeHistoryRow(row: HistoryRow): Uint8Array {
  const out = new Uint8Array(69);
  out.set(row.txHash, 0);
  out.set(row.mergedBlock, 32);
  new DataView(out.buffer).setUint32(64, row.position);
  out[68] = row.direction;
  return out;
}

export function decodeHistoryRow(bytes: Uint8Array): HistoryRow {
  assert(bytes.length === 69, `history row has ${bytes.length} bytes, expected 69`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return {
    txHash: bytes.slice(0, 32),
    mergedBlock: bytes.slice(32, 64),
    position: view.getUint32(64),
    direction: bytes[68] as HistoryDirection,
  };
}

/** A small insertion-ordered LRU. */
function createLru<V>(capacity: number) {
  const map = new Map<string, V>();
  return {
    get(key: string): V | undefined {
      const value = map.get(key);
      if (value !== undefined) {
        map.delete(key);
        map.set(key, value);
      }
      return value;
    },
    set(key: string, value: V): void {
      map.delete(key);
      map.set(key, value);
      while (map.size > capacity) map.delete(map.keys().next().value as string);
    },
  };
}

export interface LedgerReads {
  /** The acceptance record of a stored (or being-committed) block; genesis has the empty record. */
  record(id: string): AcceptanceRecord;
  rememberRecord(id: string, record: AcceptanceRecord): void;
  /** A block's transactions, decoded, with their ids. */
  transactions(id: string): readonly BlockTransaction[];
  rememberTransactions(id: string, txs: readonly BlockTransaction[]): void;
  /** A known block's miner (undefined when its header is gone). */
  miner(id: string): Uint8Array | undefined;
}

export function createLedgerReads(chain: Chain, store: KvStore): LedgerReads {
  const records = createLru<AcceptanceRecord>(ledgerRecordCacheBlocksMax);
  const txs = createLru<readonly BlockTransaction[]>(ledgerTxCacheBlocksMax);
  const emptyRecord: AcceptanceRecord = { ...zeroTotals, merged: [] };
  return {
    record(id) {
      if (id === chain.genesis.id) return emptyRecord;
      const cached = records.get(id);
      if (cached) return cached;
      const bytes = store.get(ledgerKeys.acceptance(fromHex(id)));
      assert(bytes !== undefined, `block ${id} has no acceptance record (a datadir from before the ledger must be deleted)`);
      const record = decodeAcceptanceRecord(bytes);
      records.set(id, record);
      return record;
    },
    rememberRecord: (id, record) => records.set(id, record),
    transactions(id) {
      const cached = txs.get(id);
      if (cached) return cached;
      const block = chain.getBlock(id);
      assert(block !== undefined, `block ${id} has no stored body`);
      // Stored bodies passed validation: decode only, no signature checks.
      const decoded = block.transactions.map((bytes) => ({ bytes, tx: decodeTransaction(bytes), hash: blake3(bytes) }));
      txs.set(id, decoded);
      return decoded;
    },
    rememberTransactions: (id, list) => txs.set(id, list),
    miner: (id) => chain.get(id)?.header.miner,
  };
}
