/**
 * The transaction pool (docs/design.md "Consensus" and "State, accounts and energy", docs/mempool.md): admission, per-sender nonce queues, ordering by fee
 * rate, replacement, bounds with eviction of the cheapest, expiry, removal when chain blocks accept transactions,
 * re-admission when blocks leave the selected chain, and block-template selection.
 *
 * Admission runs in stages, cheap before expensive (docs/style.md habit 4):
 *   1. shape  — size bound, decode (canonical), chain id, minimum fee rate, already known;
 *   2. state  — synchronous against the virtual state (pool-state.ts): nonce window, replacement, conflict keys,
 *               balance with pending spends, and the kind's own state rules (`checkContext`, the rules acceptance
 *               runs) on top of the sender's earlier pending transactions; a transaction acceptance would refuse
 *               never reaches stage 3;
 *   3. proof  — every proof the batch's survivors ask for in ONE call to the witness-check port (a worker pool);
 *   4. commit — stage 2 again, authoritative (the state may have moved during the await), then room (eviction).
 *               It never awaits, so concurrent batches cannot interleave inside it.
 *
 * The pool keeps its candidate set (candidates.ts) — every sender's executable, state-checked run — up to date on
 * each change and each block (`stateChanged`), so a template (`selectForBlock`) reads no state.
 * What a transaction spends, its conflict keys and its mass come from its kind (src/kinds/), via the entry.
 *
 * The pool's state is one MempoolState (pool/state.ts); each operation is a free function over it in
 * src/mempool/pool/ (admit-checks.ts, admit.ts, remove.ts, recheck.ts, block.ts, read.ts). This file is the wiring.
 */
import { toHex } from '../util/bytes.ts';
import { admitBatch, admitOne } from './pool/admit.ts';
import { blockApplied, expire, removeAccepted, removeConflicting, revalidate, stateChanged } from './pool/block.ts';
import { candidateRuns, nextNonce, pending, pendingFor, selectForBlock, statusOf } from './pool/read.ts';
import { recomputeCandidates } from './pool/recheck.ts';
import { subscribe } from './pool/remove.ts';
import { createMempoolState } from './pool/state.ts';
import type { Mempool, MempoolEvent, MempoolOptions } from './pool-api.ts';

export type { Mempool, MempoolEvent, MempoolOptions };

export function createMempool(options: MempoolOptions): Mempool {
  const state = createMempoolState(options);
  const addBatch = (items: readonly Uint8Array[]) => admitBatch(state, items);
  return {
    limits: state.limits,
    add: (bytes) => admitOne(state, bytes),
    addBatch,
    readmit: addBatch,
    removeAccepted: (txHashes) => removeAccepted(state, txHashes),
    removeConflicting: (conflictKeys) => removeConflicting(state, conflictKeys),
    revalidate: (addresses) => revalidate(state, addresses),
    blockApplied: (update) => blockApplied(state, update),
    stateChanged: (change) => stateChanged(state, change),
    candidates: () => candidateRuns(state),
    recomputeCandidates: () => recomputeCandidates(state),
    expire: () => expire(state),
    selectForBlock: (request) => selectForBlock(state, request),
    get: (hash) => state.byId.get(toHex(hash)),
    status: (hash) => statusOf(state, hash),
    pending: () => pending(state),
    pendingFor: (address) => pendingFor(state, address),
    nextNonce: (address) => nextNonce(state, address),
    subscribe: (listener) => subscribe(state, listener),
    get size() {
      return state.byId.size;
    },
    get bytes() {
      return state.totalBytes;
    },
    get candidateCount() {
      return state.candidates.size;
    },
  };
}
