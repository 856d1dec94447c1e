/**
 * The ledger's side of pruning (docs/storage.md "Pruning"): the per-block write log of trie nodes (`W` rows), the
 * state garbage collection of a round (src/state/trie-prune.ts) and the rows a pruned block leaves behind —
 * acceptance record, inclusion and transaction bytes, receipts, merged-by and history rows, its write log.
 */
import type { IndexedBlock } from '../chain/block-index.ts';
import type { PruningRound } from '../chain/state-port.ts';
import type { KvOp, KvStore } from '../storage/kv.ts';
import { toHex } from '../util/bytes.ts';
import { createHashBloom } from '../util/hash-bloom.ts';
import { ledgerKeys, type LedgerReads } from './ledger-rows.ts';
import { trieGarbage, type TrieGarbageCounts } from './trie-prune.ts';
import { chainMoveRows } from './tx-index.ts';

const hashBytes = 32;

export interface StatePruning {
  /** The block's write-log row from its batch's trie puts (none when it wrote no node). */
  writeLogRow(blockHash: Uint8Array, ops: readonly KvOp[]): KvOp | undefined;
  pruneState(round: PruningRound): Iterable<KvOp[]>;
  pruneRows(chainBlock: IndexedBlock, merged: readonly IndexedBlock[]): KvOp[];
  /** Figures of the last finished round's garbage collection (logs, tests). */
  readonly lastRound: Readonly<TrieGarbageCounts>;
}

export function createStatePruning(store: KvStore, reads: LedgerReads): StatePruning {
  const triePrefix = ledgerKeys.trieprefix;
  const isTriePut = (op: KvOp): boolean => op.type === 'put' && op.key.length === triePrefix.length + hashBytes && op.key[0] === triePrefix[0];
  // Nodes written while a round runs: the Bloom filter of kept write logs was built before them.
  let liveWrites: Set<string> | undefined;
  let lastRound: TrieGarbageCounts = { candidates: 0, deleted: 0 };

  const writeLogRow = (blockHash: Uint8Array, ops: readonly KvOp[]): KvOp | undefined => {
    const puts = ops.filter(isTriePut);
    if (puts.length === 0) return undefined;
    const log = new Uint8Array(puts.length * hashBytes);
    puts.forEach((op, i) => {
      const hash = op.key.subarray(triePrefix.length);
      log.set(hash, i * hashBytes);
      liveWrites?.add(toHex(hash));
    });
    return { type: 'put', key: ledgerKeys.writeLog(blockHash), value: log };
  };

  /** A Bloom filter of every node in the write logs of blocks the round keeps: one pass to size it, one to fill it. */
  const keptWrites = (round: PruningRound) => {
    function* keptLogs(): Generator<Uint8Array> {
      for (const [key, value] of store.entries({ prefix: ledgerKeys.writeLogPrefix })) {
        if (!round.isPruned(toHex(key.subarray(1)))) yield value;
      }
    }
    let members = 0;
    for (const log of keptLogs()) members += log.length / hashBytes;
    const bloom = createHashBloom(members);
    for (const log of keptLogs()) for (let at = 0; at < log.length; at += hashBytes) bloom.add(log.subarray(at, at + hashBytes));
    return bloom;
  };

  function* writtenByPruned(round: PruningRound): Generator<Uint8Array> {
    for (const block of round.pruned()) {
      const log = store.get(ledgerKeys.writeLog(block.hash));
      if (log !== undefined) for (let at = 0; at < log.length; at += hashBytes) yield log.slice(at, at + hashBytes);
    }
  }

  function* pruneState(round: PruningRound): Generator<KvOp[]> {
    const bloom = keptWrites(round);
    const live = new Set<string>();
    liveWrites = live;
    const counts: TrieGarbageCounts = { candidates: 0, deleted: 0 };
    try {
      yield* trieGarbage(
        {
          store,
          prefix: triePrefix,
          oldRoot: round.from.header.stateRoot,
          newRoot: round.to.header.stateRoot,
          writtenByPruned: writtenByPruned(round),
          retained: (hash) => bloom.has(hash) || live.has(toHex(hash)),
        },
        counts,
      );
      lastRound = counts;
    } finally {
      if (liveWrites === live) liveWrites = undefined;
    }
  }

  const pruneRows = (chainBlock: IndexedBlock, merged: readonly IndexedBlock[]): KvOp[] => {
    // History and merged-by rows of the chain block's acceptance: what leaving the chain deletes.
    const ops = [...chainMoveRows(reads, [chainBlock], []).ops];
    const deletedInclusion = new Set<string>();
    const touchedTxs = new Map<string, Uint8Array>();
    for (const block of merged) {
      ops.push({ type: 'del', key: ledgerKeys.acceptance(block.hash) }, { type: 'del', key: ledgerKeys.writeLog(block.hash) });
      for (const [key] of store.entries({ prefix: ledgerKeys.receiptPrefix(block.hash) })) ops.push({ type: 'del', key });
      for (const { hash } of reads.transactions(block.id)) {
        const key = ledgerKeys.inclusion(hash, block.hash);
        ops.push({ type: 'del', key });
        deletedInclusion.add(toHex(key));
        touchedTxs.set(toHex(hash), hash);
      }
    }
    // A transaction's bytes go with its last carrier (one carried by a kept block as well stays).
    for (const hash of touchedTxs.values()) {
      let carried = false;
      for (const [key] of store.entries({ prefix: ledgerKeys.inclusionPrefix(hash) })) {
        if (!deletedInclusion.has(toHex(key))) {
          carried = true;
          break;
        }
      }
      if (!carried) ops.push({ type: 'del', key: ledgerKeys.txBytes(hash) });
    }
    return ops;
  };

  return {
    writeLogRow,
    pruneState,
    pruneRows,
    get lastRound() {
      return lastRound;
    },
  };
}
