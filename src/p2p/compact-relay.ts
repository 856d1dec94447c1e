/**
 * Compact block relay (docs/p2p.md "Compact blocks"): new blocks are pushed at once to every peer that asked for
 * compact blocks (service bit `compactBlocks`), as a header plus short transaction ids — one one-way delay a hop
 * instead of inv → getdata → block's three. The receiver rebuilds the block from transactions it holds and asks the
 * sender for the rest by index; the header's transaction root decides whether the rebuilt block is the block, and on
 * any doubt the full block is fetched. A peer with the `prefilledBlocks` service bit gets `prefilledblock` instead:
 * the same ids plus the transactions it is not known to hold, so it rarely has anything to ask. Explicit state plus
 * free functions: relay's state (relay/state.ts) holds a `CompactRelayState`, and relay's operations
 * (relay/compact.ts, relay/transactions.ts) call these.
 */
import { transactionsRoot, type Block } from '../codec/block.ts';
import type { BlockHeader } from '../codec/header.ts';
import { blockHash, compactToTarget, hashMeetsTarget } from '../consensus/pow.ts';
import { blake3 } from '../crypto/blake3.ts';
import { equalBytes, fromHex, toHex } from '../util/bytes.ts';
import type { BoundedSet } from '../util/bounded-set.ts';
import { compactNonceBytes, shortIdAt, shortIdBytes, shortIdCount, shortIdKey, shortIdOf, type CompactBlockMessage } from './messages/compact-block.ts';
import type { PrefilledBlockMessage, PrefilledTransaction } from './messages/prefilled-block.ts';
import { txShortKey } from './messages/tx-inventory.ts';
import type { Peer } from './peer.ts';

/** Compact blocks waiting for transactions asked of their sender; the oldest is dropped past this. */
export const compactPendingMax = 16;
/**
 * Of those, at most this many from one peer (its own oldest is dropped past it): a peer pushing headers it never
 * completes (a pushed header costs it almost no work: maxTarget is 2^255) can only displace its own entries, never
 * evict another peer's block while its transactions are on their way.
 */
const compactPendingPerPeerMax = 4;
/**
 * A compact block still waiting for its transactions this long after `getblocktxn` is fetched whole with `getdata`
 * (a round trip at 300 ms links plus a megabyte of transactions at 10 Mbps is ~1.5 s).
 */
export const compactCompletionTimeoutMs = 3_000;
/**
 * A further peer that pushes a block whose transactions another peer is still returning is asked for the whole block
 * only if they have not come this long after: an honest sender answers within a round trip (~200 ms on the lab's
 * 100 ms links), and fetching the whole block from every further announcer at once cost the lab ~45 bytes a transfer
 * a node (docs/network.md "Where a transfer's wire bytes go"). A claimer that never answers delays the block by this.
 */
export const compactBackupDelayMs = 500;
/**
 * `getblocktxn` is answered only for blocks at most this many blue blocks below our selected tip (BIP 152's
 * MAX_BLOCKTXN_DEPTH is 10): an honest peer asks about a block just pushed to it; deeper ones get `notfound`
 * before the block is read, and the asker falls back to `getdata`.
 */
export const compactBlockTxnDepthMax = 16;

interface PendingCompact {
  readonly peer: Peer;
  readonly header: BlockHeader;
  readonly transactions: (Uint8Array | undefined)[];
  readonly missing: readonly number[];
  readonly atMs: number;
}

/**
 * A confirmed transaction stays held, to rebuild blocks from, until this many later validated blocks: a block mined
 * in parallel (a DAG's blocks often are) carries many of the same ones, and arrives within about a block interval.
 * Past that a held transaction only costs a hash a pushed block: relay's cache keeps 50,000 for `gettx`, and salting
 * all of them for every block made the short-id hashing the top of a validating node's main-thread profile at
 * 400 tx/s (docs/performance.md "Line rate, again").
 */
export const compactHeldConfirmedBlocks = 3;

export interface CompactRelayState {
  /** The transactions relay holds and may see in a block: id (hex) → id bytes, salted afresh for each pushed block. */
  readonly held: Map<string, Uint8Array>;
  readonly pending: Map<string, PendingCompact>;
  /** The transaction ids of the last validated blocks, oldest first: each leaves `held` once it is the oldest of more than compactHeldConfirmedBlocks. */
  readonly confirmed: (readonly string[])[];
}

export function createCompactRelayState(): CompactRelayState {
  return { held: new Map(), pending: new Map(), confirmed: [] };
}

/** Remembers a transaction relay holds (admitted to the pool), so a compact block naming it can be rebuilt. */
export function rememberTransaction(state: CompactRelayState, id: string): void {
  if (!state.held.has(id)) state.held.set(id, fromHex(id));
}

/** Forgets a transaction relay no longer holds (evicted from its cache). */
export function forgetTransaction(state: CompactRelayState, id: string): void {
  state.held.delete(id);
}

/** A block was validated: its transactions leave `held` compactHeldConfirmedBlocks blocks later. */
export function confirmTransactions(state: CompactRelayState, txIds: readonly string[]): void {
  state.confirmed.push(txIds);
  while (state.confirmed.length > compactHeldConfirmedBlocks) for (const id of state.confirmed.shift()!) state.held.delete(id);
}

/** A pushed block as every compact peer gets it, built once a push (one random nonce), and its transactions' ids. */
export interface CompactForm {
  readonly message: CompactBlockMessage;
  readonly transactions: readonly Uint8Array[];
  /** Each transaction's id (hex), in block order: what a peer's known set is asked about. */
  readonly txIds: readonly string[];
}

const randomNonce = (): Uint8Array => globalThis.crypto.getRandomValues(new Uint8Array(compactNonceBytes));

export function compactFormOf(block: Block, nonce: Uint8Array = randomNonce()): CompactForm {
  const key = shortIdKey(blockHash(block.header), nonce);
  const shortIds = new Uint8Array(block.transactions.length * shortIdBytes);
  const txIds = block.transactions.map((tx, i) => {
    const id = blake3(tx);
    shortIds.set(shortIdOf(key, id), i * shortIdBytes);
    return toHex(id);
  });
  return { message: { type: 'cmpctblock', header: block.header, nonce, shortIds }, transactions: block.transactions, txIds };
}

/** The `cmpctblock` of a block. */
export function compactBlockOf(block: Block, nonce?: Uint8Array): CompactBlockMessage {
  return compactFormOf(block, nonce).message;
}

/**
 * Transaction bytes one `prefilledblock` carries at most (a tenth of a full block). The known set is bounded
 * (p2pKnownInventoryMax ids a peer), so at a high transaction rate it forgets what a peer was told seconds ago; past
 * this budget a peer asks for the rest by index instead of being sent a whole block it mostly holds.
 */
export const compactPrefilledBytesMax = 100_000;

/**
 * The `prefilledblock` for one peer: the compact form plus the transactions `known` (what went to or came from
 * that peer) does not hold, in block order up to `bytesMax`, each then marked known — the peer has it once this
 * message is read.
 */
export function prefilledFor(form: CompactForm, known: BoundedSet<string>, bytesMax = compactPrefilledBytesMax): PrefilledBlockMessage {
  const prefilled: PrefilledTransaction[] = [];
  let bytes = 0;
  form.txIds.forEach((id, index) => {
    const tx = form.transactions[index]!;
    const key = txShortKey(id);
    if (known.has(key) || bytes + tx.length > bytesMax) return;
    known.add(key);
    bytes += tx.length;
    prefilled.push({ index, tx });
  });
  return { ...form.message, type: 'prefilledblock', prefilled };
}

/** The held transactions under one block's key: short id (hex) → id (hex), or null when two share it. */
function saltedHeld(state: CompactRelayState, key: Uint8Array): Map<string, string | null> {
  const salted = new Map<string, string | null>();
  for (const [id, bytes] of state.held) {
    const short = toHex(shortIdOf(key, bytes));
    salted.set(short, salted.has(short) ? null : id);
  }
  return salted;
}

/** The cheapest check of a pushed header: its hash meets the target its own bits encode (one hash, no store read). */
export function meetsOwnTarget(header: BlockHeader, hash: Uint8Array): boolean {
  return hashMeetsTarget(hash, compactToTarget(header.bits));
}

export type RebuildResult =
  | { readonly kind: 'block'; readonly block: Block }
  /** Transactions at these indexes are unknown (or ambiguous) here: ask the sender. */
  | { readonly kind: 'missing'; readonly indexes: readonly number[] }
  /** The ids rebuilt a block the header does not commit to (a short-id collision): fetch the full block. */
  | { readonly kind: 'mismatch' };

/**
 * Rebuilds what it can of a pushed block from the transactions it carries and known ones; `lookup` gives a held
 * transaction's bytes.
 * Salting the held transactions costs one hash each, paid only for a block with transactions that passed the
 * cheaper checks (own target, parents known or allowed, not already pending).
 */
export function rebuildCompact(
  state: CompactRelayState,
  message: CompactBlockMessage | PrefilledBlockMessage,
  hash: Uint8Array,
  peer: Peer,
  nowMs: number,
  lookup: (txId: string) => Uint8Array | undefined,
): RebuildResult {
  const count = shortIdCount(message.shortIds);
  const sent = message.type === 'prefilledblock' ? message.prefilled : [];
  const transactions: (Uint8Array | undefined)[] = new Array<Uint8Array | undefined>(count);
  for (const { index, tx } of sent) transactions[index] = tx;
  // Salting the held transactions (a hash each) only when some position was not sent.
  if (sent.length === count) return finish(message.header, transactions as Uint8Array[]);
  const salted = saltedHeld(state, shortIdKey(hash, message.nonce));
  const missing: number[] = [];
  for (let i = 0; i < count; i++) {
    if (transactions[i] !== undefined) continue;
    const full = salted.get(toHex(shortIdAt(message.shortIds, i)));
    const raw = full == null ? undefined : lookup(full);
    transactions[i] = raw;
    if (raw === undefined) missing.push(i);
  }
  if (missing.length === 0) return finish(message.header, transactions as Uint8Array[]);
  makeRoomFor(state, peer);
  state.pending.set(toHex(hash), { peer, header: message.header, transactions, missing, atMs: nowMs });
  return { kind: 'missing', indexes: missing };
}

/** Drops the peer's own oldest entry when it holds its share, else the oldest of all when the table is full. */
function makeRoomFor(state: CompactRelayState, peer: Peer): void {
  const own = [...state.pending].filter(([, p]) => p.peer === peer).map(([id]) => id);
  if (own.length >= compactPendingPerPeerMax) state.pending.delete(own[0]!);
  while (state.pending.size >= compactPendingMax) state.pending.delete(state.pending.keys().next().value as string);
}

export type CompleteResult = RebuildResult | { readonly kind: 'unrequested' } | { readonly kind: 'wrong-count'; readonly expected: number };

/** Fills a pending compact block with the transactions its sender returned (`blocktxn`). */
export function completeCompact(state: CompactRelayState, id: string, peer: Peer, returned: readonly Uint8Array[]): CompleteResult {
  const pending = state.pending.get(id);
  if (pending === undefined || pending.peer !== peer) return { kind: 'unrequested' };
  state.pending.delete(id);
  if (returned.length !== pending.missing.length) return { kind: 'wrong-count', expected: pending.missing.length };
  pending.missing.forEach((index, i) => {
    pending.transactions[index] = returned[i];
  });
  return finish(pending.header, pending.transactions as Uint8Array[]);
}

function finish(header: BlockHeader, transactions: Uint8Array[]): RebuildResult {
  const block: Block = { header, transactions };
  return equalBytes(transactionsRoot(block), header.txRoot) ? { kind: 'block', block } : { kind: 'mismatch' };
}

/** Drops pending compact blocks older than `timeoutMs` or from a closed peer. */
export function expireCompact(state: CompactRelayState, nowMs: number, timeoutMs: number, closed?: Peer): void {
  for (const [id, p] of state.pending) if (p.peer === closed || nowMs - p.atMs >= timeoutMs) state.pending.delete(id);
}
