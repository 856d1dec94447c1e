/**
 * BIP340 batch verification on worker threads (Node only): one worker per core, each running libsecp256k1 (Wasm,
 * server/crypto/fast-verifier.ts). A block's signatures are split into one chunk per worker, packed into three flat
 * buffers (signatures, messages, keys) that are transferred, not copied. Implements AsyncSignatureVerifier
 * (src/crypto/verifier.ts); answers are identical to the reference, only delivered later.
 *
 * Every check goes to the workers, whatever the submission size (issue 29: single submissions used to be verified
 * on the main thread): checks submitted in the same turn of the event loop are coalesced into one batch (flushed on
 * setImmediate, or at once when a full round of chunks is queued), so a burst of one-transaction submissions costs
 * one round trip per chunk, not one per signature. In front of the workers sits the process's verification cache
 * (src/crypto/sig-cache.ts): what admission verified, block validation finds there (server/crypto/node-verifier.ts).
 * Workers start from server/worker-entry.ts's bootstrap, the same under `node --import tsx`, bin/weft.mjs (bundled or
 * not) and Vitest whatever the working directory.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { WeftError } from '../../src/errors.ts';
import { publicKeyBytes, signatureBytes } from '../../src/crypto/keys.ts';
import { cachedAsyncWitnessVerifier } from '../../src/crypto/cached-witness-verifier.ts';
import { asyncWitnessVerifierOver, checkWitnesses, type AsyncWitnessVerifier, type WitnessCheck } from '../../src/crypto/witness-check.ts';
import { createSigCache, type SigCache } from '../../src/crypto/sig-cache.ts';
import type { AsyncSignatureVerifier, SchnorrCheck } from '../../src/crypto/verifier.ts';
import { fastVerifySchnorr } from './fast-verifier.ts';
import { workerEntry } from '../worker-entry.ts';

const messageBytes = 32;
/**
 * Batches this small are verified inline when a caller asks for it (`inlineItemsMax`); the node's default is 0:
 * everything travels, so the main thread verifies nothing.
 */
const verifyPoolInlineItemsMax = 0;
/** A chunk is never larger than this: a full round of chunks queued is flushed without waiting for the turn's end. */
const verifyPoolChunkItemsMax = 512;
/** A chunk is never split below this size, so a worker's round trip is paid for by at least this much work. */
const verifyPoolChunkItemsMin = 32;
/** Chunks in flight across all workers; a caller that outruns the workers gets LimitExceeded instead of a queue. */
const verifyPoolPendingChunksMax = 4_096;

/** Main thread → worker (the pool adds `id`). Three packed buffers, transferred. */
export interface VerifyChunkRequest {
  readonly count: number;
  readonly signatures: Uint8Array;
  readonly messages: Uint8Array;
  readonly publicKeys: Uint8Array;
}
/** Main thread → worker: checks of schemes other than BIP340 (src/crypto/witness-check.ts), structured-cloned. */
export interface VerifyProofsRequest {
  readonly proofs: readonly WitnessCheck[];
}
export interface VerifyChunkResponse {
  readonly id: number;
  readonly results: Uint8Array;
}

export interface VerifyPoolOptions {
  /** Worker threads; default: every core (os.availableParallelism()). */
  readonly workers?: number;
  readonly inlineItemsMax?: number;
  /** The verification cache in front of the workers; default: the process's (nodeSigCache), null for none. */
  readonly cache?: SigCache | null;
}

/** The process's verification cache: the pool (admission) and the chain's verifier (blocks) share it. */
export const nodeSigCache: SigCache = createSigCache();

export interface VerifyPool extends AsyncSignatureVerifier, AsyncWitnessVerifier {
  readonly workers: number;
  /** Checks waiting for a flush plus chunks the workers owe answers for. */
  queueLength(): { readonly queuedItems: number; readonly chunksInFlight: number };
  /** Checks and chunks sent to the workers since the pool started (cache hits never are). */
  sent(): { readonly items: number; readonly chunks: number };
  /** Resolves once every worker has loaded (the first batch does not need to wait for it). */
  ready(): Promise<void>;
  /** Stops the workers; pending batches are rejected. */
  close(): Promise<void>;
}

/** The pool failed (a worker died, the pool is closed or saturated). Code -32603 / -32005. */
class VerifyPoolError extends WeftError {}

interface Pending {
  readonly resolve: (results: Uint8Array) => void;
  readonly reject: (error: unknown) => void;
}

/** One worker and the chunks it owes answers for. */
interface Slot {
  readonly worker: Worker;
  readonly pending: Map<number, Pending>;
  send(chunk: VerifyChunkRequest | VerifyProofsRequest): Promise<Uint8Array>;
  /** Rejects every pending chunk with `error`. */
  abandon(error: unknown): void;
}

/** Each worker's entry: its bundle, or the TypeScript through tsx (server/worker-entry.ts). */
const workerBootstrap = workerEntry(new URL('./verify-worker.ts', import.meta.url));

function pack(items: readonly SchnorrCheck[], from: number, to: number): VerifyChunkRequest {
  const count = to - from;
  const signatures = new Uint8Array(signatureBytes * count);
  const messages = new Uint8Array(messageBytes * count);
  const publicKeys = new Uint8Array(publicKeyBytes * count);
  for (let i = 0; i < count; i++) {
    const item = items[from + i]!;
    signatures.set(item.signature, signatureBytes * i);
    messages.set(item.message, messageBytes * i);
    publicKeys.set(item.publicKey, publicKeyBytes * i);
  }
  return { count, signatures, messages, publicKeys };
}

/** Only well-formed 32-byte-message checks travel; anything else is answered inline (it is rare and cheap). */
function packable(item: SchnorrCheck): boolean {
  return (
    item.signature instanceof Uint8Array &&
    item.signature.length === signatureBytes &&
    item.publicKey instanceof Uint8Array &&
    item.publicKey.length === publicKeyBytes &&
    item.message instanceof Uint8Array &&
    item.message.length === messageBytes
  );
}

let nextChunkId = 1;

/**
 * Starts one worker. `onDeath` runs once if the worker fails or exits on its own; its pending chunks are rejected.
 * The worker is unref'd while idle so an idle pool never keeps the process alive, and ref'd while it owes answers
 * so an awaiting caller is not cut short by the process exiting.
 */
function startSlot(onDeath: (slot: Slot) => void): Slot {
  const worker = new Worker(workerBootstrap, { eval: true });
  worker.unref();
  const pending = new Map<number, Pending>();
  let dead = false;
  const slot: Slot = {
    worker,
    pending,
    send(chunk) {
      const id = nextChunkId++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        worker.ref();
        const buffers = 'proofs' in chunk ? [] : ([chunk.signatures.buffer, chunk.messages.buffer, chunk.publicKeys.buffer] as ArrayBuffer[]);
        worker.postMessage({ ...chunk, id }, buffers);
      });
    },
    abandon(error) {
      for (const waiter of pending.values()) waiter.reject(error);
      pending.clear();
    },
  };
  worker.on('message', (response: VerifyChunkResponse) => {
    const waiter = pending.get(response.id);
    if (waiter === undefined) return;
    pending.delete(response.id);
    if (pending.size === 0) worker.unref();
    waiter.resolve(response.results);
  });
  const die = (message: string) => {
    if (dead) return;
    dead = true;
    slot.abandon(new VerifyPoolError('internal', message));
    onDeath(slot);
  };
  worker.on('error', (error) => die(`verify worker failed: ${error.message}`));
  worker.on('exit', (code) => die(`verify worker exited with code ${code}`));
  return slot;
}

export function createVerifyPool(options: VerifyPoolOptions = {}): VerifyPool {
  const workerCount = Math.max(1, Math.floor(options.workers ?? availableParallelism()));
  const inlineItemsMax = options.inlineItemsMax ?? verifyPoolInlineItemsMax;
  let closed = false;
  // A dead worker is replaced at once, so a crash costs the batches it held, never the pool.
  const replace = (dead: Slot) => {
    const at = slots.indexOf(dead);
    if (!closed && at >= 0) slots[at] = startSlot(replace);
  };
  const slots: Slot[] = Array.from({ length: workerCount }, () => startSlot(replace));

  const dispatch = (chunk: VerifyChunkRequest | VerifyProofsRequest): Promise<Uint8Array> => {
    const inFlight = slots.reduce((sum, slot) => sum + slot.pending.size, 0);
    if (inFlight >= verifyPoolPendingChunksMax) {
      const message = `verify pool: ${inFlight} chunks in flight, at most ${verifyPoolPendingChunksMax}`;
      return Promise.reject(new VerifyPoolError('limit_exceeded', message));
    }
    // The least-loaded worker: the chunks of one batch spread over every core.
    return slots.reduce((best, s) => (s.pending.size < best.pending.size ? s : best)).send(chunk);
  };

  /** Splits packable checks into one chunk per worker (at least verifyPoolChunkItemsMin each) and dispatches them. */
  const verifyOnWorkers = async (items: readonly SchnorrCheck[]): Promise<boolean[]> => {
    const results = new Array<boolean>(items.length);
    const travelling: number[] = [];
    items.forEach((item, i) => {
      if (packable(item)) travelling.push(i);
      else results[i] = fastVerifySchnorr(item.signature, item.message, item.publicKey);
    });
    if (travelling.length === 0) return results;
    const travellers = travelling.map((i) => items[i]!);
    const chunks = Math.max(Math.min(workerCount, Math.floor(travellers.length / verifyPoolChunkItemsMin)), Math.ceil(travellers.length / verifyPoolChunkItemsMax), 1);
    const size = Math.ceil(travellers.length / chunks);
    itemsSent += travellers.length;
    chunksSent += chunks;
    const answers = await Promise.all(
      Array.from({ length: chunks }, (_, c) => dispatch(pack(travellers, c * size, Math.min(travellers.length, (c + 1) * size)))),
    );
    answers.forEach((bytes, c) => bytes.forEach((ok, k) => (results[travelling[c * size + k]!] = ok === 1)));
    return results;
  };
  let itemsSent = 0;
  let chunksSent = 0;

  // Checks of every caller in this turn of the event loop, answered together.
  let queued: { items: readonly SchnorrCheck[]; resolve: (r: boolean[]) => void; reject: (e: unknown) => void }[] = [];
  let queuedItems = 0;
  let flushScheduled = false;
  const flush = (): void => {
    flushScheduled = false;
    const batch = queued;
    queued = [];
    queuedItems = 0;
    if (batch.length === 0) return;
    verifyOnWorkers(batch.flatMap((w) => w.items)).then(
      (results) => {
        let at = 0;
        for (const w of batch) {
          w.resolve(results.slice(at, at + w.items.length));
          at += w.items.length;
        }
      },
      (error) => batch.forEach((w) => w.reject(error)),
    );
  };

  const verifySchnorrBatch = async (items: readonly SchnorrCheck[]): Promise<boolean[]> => {
    if (closed) throw new VerifyPoolError('internal', 'verify pool: used after close()');
    if (items.length === 0) return [];
    if (items.length <= inlineItemsMax) return items.map((i) => fastVerifySchnorr(i.signature, i.message, i.publicKey));
    return new Promise((resolve, reject) => {
      queued.push({ items, resolve, reject });
      queuedItems += items.length;
      if (queuedItems >= workerCount * verifyPoolChunkItemsMax) flush();
      else if (!flushScheduled) {
        flushScheduled = true;
        setImmediate(flush);
      }
    });
  };

  /** Other schemes (ECDSA, ring signatures, range proofs — those of one chunk in one batch): a chunk per worker, or inline when few. */
  const verifyOtherProofs = async (checks: readonly WitnessCheck[]): Promise<boolean[]> => {
    if (checks.length <= inlineItemsMax) return checkWitnesses(checks);
    const chunks = Math.min(workerCount, checks.length);
    const size = Math.ceil(checks.length / chunks);
    const answers = await Promise.all(Array.from({ length: chunks }, (_, c) => dispatch({ proofs: checks.slice(c * size, (c + 1) * size) })));
    return answers.flatMap((bytes) => [...bytes].map((ok) => ok === 1));
  };
  const uncached = asyncWitnessVerifierOver({ name: 'pool', verifySchnorrBatch }, verifyOtherProofs);
  const cache = options.cache === undefined ? nodeSigCache : options.cache;
  const proofs = cache === null ? uncached : cachedAsyncWitnessVerifier(uncached, cache);

  return {
    name: `libsecp256k1-wasm ×${workerCount} threads`,
    workers: workerCount,
    async verifySchnorrBatch(items) {
      if (closed) throw new VerifyPoolError('internal', 'verify pool: used after close()');
      return proofs.verifyWitnesses(items.map((item) => ({ scheme: 'bip340' as const, signature: item.signature, message: item.message, publicKey: item.publicKey })));
    },
    async verifyWitnesses(checks) {
      if (closed) throw new VerifyPoolError('internal', 'verify pool: used after close()');
      return proofs.verifyWitnesses(checks);
    },
    sent: () => ({ items: itemsSent, chunks: chunksSent }),
    queueLength: () => ({ queuedItems, chunksInFlight: slots.reduce((n, slot) => n + slot.pending.size, 0) }),
    async ready() {
      // An empty chunk answered proves the worker's module graph (tsx, Wasm) is loaded, not just the thread started.
      await Promise.all(slots.map((slot) => slot.send(pack([], 0, 0))));
    },
    async close() {
      if (closed) return;
      closed = true;
      const error = new VerifyPoolError('internal', 'verify pool closed');
      for (const w of queued.splice(0)) w.reject(error);
      for (const slot of slots) slot.abandon(new VerifyPoolError('internal', 'verify pool closed'));
      await Promise.all(slots.map((slot) => slot.worker.terminate()));
    },
  };
}
