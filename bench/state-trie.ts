/**
 * State trie benchmark (docs/state-trie.md "Measured"): 10,000 random account updates in one batch on a trie of
 * 100,000 accounts, then proof generation and verification rates. Baselines measured in the same run: the bare
 * BLAKE3 calls the batch made (64-byte inputs: the hashing floor), rebuilding the whole map from scratch, and the
 * same batches with a Wasm BLAKE3 (hash-wasm) plugged in as the trie's hash, which must give the same roots.
 *
 *   npx tsx bench/state-trie.ts [accounts=100000] [updates=10000] [batches=5]
 *
 * Nodes live in LMDB in a temporary directory (the full node's backend), read through the sync KvStore port.
 */
import { blake3 } from '@noble/hashes/blake3.js';
import { createBLAKE3 } from 'hash-wasm';
import { open } from 'lmdb';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KvOp, KvStore } from '../src/storage/kv.ts';
import { createStateTrie } from '../src/state/trie.ts';
import { decodeProof, encodeProof } from '../src/state/proof.ts';
import { verifyProof } from '../src/state/proof-verify.ts';
import { emptyStateRoot, type StateHash } from '../src/state/trie-hash.ts';
import { toHex } from '../src/util/bytes.ts';

const accounts = Number(process.argv[2] ?? 100_000);
const updatesPerBatch = Number(process.argv[3] ?? 10_000);
const batches = Number(process.argv[4] ?? 5);
const proofsCount = 10_000;
/** An account record: balance, nonce and energy (u64 each) plus a little room; the exact layout is the state's. */
const accountValueBytes = 40;

/** Just what the trie reads and the bench writes, over lmdb's sync reads and one transaction per write. */
function createLmdbStore(path: string): KvStore {
  const db = open({ path, keyEncoding: 'binary', encoding: 'binary', compression: false });
  const asKey = (key: Uint8Array): Buffer => Buffer.from(key.buffer, key.byteOffset, key.byteLength);
  return {
    get: (key) => db.getBinary(asKey(key)),
    has: (key) => db.doesExist(asKey(key), undefined),
    entries: () => {
      throw new Error('not used by the trie');
    },
    async write(ops: readonly KvOp[]) {
      await db.transaction(() => {
        for (const op of ops) {
          if (op.type === 'put') db.put(asKey(op.key), op.value);
          else db.remove(asKey(op.key));
        }
      });
    },
    close: () => db.close(),
  };
}

/** xorshift128 (Marsaglia): deterministic keys and values without Math.random; not for anything secret. */
function createRng(seed: number): (out: Uint8Array) => Uint8Array {
  let x = seed | 0 || 1;
  let y = 362436069;
  let z = 521288629;
  let w = 88675123;
  return (out) => {
    for (let i = 0; i < out.length; i++) {
      const t = x ^ (x << 11);
      x = y;
      y = z;
      z = w;
      w = w ^ (w >>> 19) ^ (t ^ (t >>> 8));
      out[i] = w & 0xff;
    }
    return out;
  };
}

let hashCalls = 0;
const countingHash: StateHash = (data) => {
  hashCalls++;
  return blake3(data);
};

const rng = createRng(42);
const dir = mkdtempSync(join(tmpdir(), 'weft-bench-state-'));
const store = createLmdbStore(dir);
const trie = createStateTrie({ store, prefix: Uint8Array.of(0x10), hash: countingHash });
const keys: string[] = [];
const initial = new Map<string, Uint8Array>();
for (let i = 0; i < accounts; i++) {
  const key = toHex(rng(new Uint8Array(32)));
  keys.push(key);
  initial.set(key, rng(new Uint8Array(accountValueBytes)));
}

let t0 = performance.now();
hashCalls = 0;
// Scoped so that the 244k-node write list is garbage before the batches are timed.
const { buildMs, buildHashes, buildNodes, builtRoot } = await (async () => {
  const built = trie.applyUpdates(emptyStateRoot, initial);
  const ms = performance.now() - t0;
  await store.write(built.ops);
  return { buildMs: ms, buildHashes: hashCalls, buildNodes: built.ops.length, builtRoot: built.root };
})();
initial.clear();
let root = builtRoot;
console.log(
  `from scratch: ${accounts} accounts in ${buildMs.toFixed(0)} ms (${((buildMs * 1000) / accounts).toFixed(1)} µs/account, ` +
    `${(buildHashes / accounts).toFixed(2)} hashes/account, ${buildNodes} nodes)`,
);

const batchMs: number[] = [];
const replay: { before: Uint8Array; updates: Map<string, Uint8Array | null>; after: Uint8Array }[] = [];
let batchHashes = 0;
let batchOps = 0;
for (let b = 0; b < batches; b++) {
  const updates = new Map<string, Uint8Array | null>();
  const pick = new Uint8Array(4);
  while (updates.size < updatesPerBatch) {
    const index = new DataView(rng(pick).buffer).getUint32(0, true) % keys.length;
    updates.set(keys[index]!, rng(new Uint8Array(accountValueBytes)));
  }
  hashCalls = 0;
  t0 = performance.now();
  const next = trie.applyUpdates(root, updates);
  batchMs.push(performance.now() - t0);
  batchHashes = hashCalls;
  batchOps = next.ops.length;
  await store.write(next.ops);
  replay.push({ before: root, updates, after: next.root });
  root = next.root;
}
const median = (ms: number[]): number => ms.sort((a, b) => a - b)[ms.length >> 1]!;
const medianMs = median(batchMs);

// The same batches with a Wasm BLAKE3 plugged in: the roots must not change, only the time.
const wasm = await createBLAKE3();
const wasmHash: StateHash = (data) => {
  wasm.init();
  wasm.update(data);
  return wasm.digest('binary');
};
const wasmTrie = createStateTrie({ store, prefix: Uint8Array.of(0x10), hash: wasmHash });
const wasmMs: number[] = [];
for (const { before, updates, after } of replay) {
  t0 = performance.now();
  const again = wasmTrie.applyUpdates(before, updates);
  wasmMs.push(performance.now() - t0);
  if (toHex(again.root) !== toHex(after)) throw new Error('hash-wasm BLAKE3 gave another root than @noble/hashes');
}
const wasmMedianMs = median(wasmMs);

// Floor: the same number of bare BLAKE3 calls on 64-byte inputs (what an internal node hashes).
const block = rng(new Uint8Array(64));
t0 = performance.now();
for (let i = 0; i < batchHashes; i++) blake3(block);
const floorMs = performance.now() - t0;

console.log(
  `batch: ${updatesPerBatch} updates on ${accounts} accounts: median ${medianMs.toFixed(1)} ms ` +
    `(min ${batchMs[0]!.toFixed(1)}, max ${batchMs[batchMs.length - 1]!.toFixed(1)}; ${batches} batches), ` +
    `${((medianMs * 1000) / updatesPerBatch).toFixed(1)} µs/update, ${(batchHashes / updatesPerBatch).toFixed(2)} ` +
    `hashes/update, ${batchOps} node writes`,
);
console.log(
  `baseline: ${batchHashes} bare BLAKE3(64 B) calls ${floorMs.toFixed(1)} ms → batch/hash-floor ratio ` +
    `${(medianMs / floorMs).toFixed(2)}; from-scratch rebuild/batch ratio ${(buildMs / medianMs).toFixed(1)}`,
);
console.log(
  `hash-wasm BLAKE3 plugged in: median ${wasmMedianMs.toFixed(1)} ms per batch (same roots), ` +
    `noble/wasm ratio ${(medianMs / wasmMedianMs).toFixed(2)}`,
);

const proofKeys: Uint8Array[] = [];
for (let i = 0; i < proofsCount; i++) {
  // Half present keys, half absent ones.
  proofKeys.push(i % 2 === 0 ? Uint8Array.from(Buffer.from(keys[i]!, 'hex')) : rng(new Uint8Array(32)));
}
t0 = performance.now();
const proofs = proofKeys.map((key) => encodeProof(trie.prove(root, key)));
const proveMs = performance.now() - t0;
const proofBytes = proofs.reduce((sum, p) => sum + p.length, 0) / proofs.length;
t0 = performance.now();
let present = 0;
for (let i = 0; i < proofsCount; i++) {
  if (verifyProof(root, proofKeys[i]!, decodeProof(proofs[i]!)).exists) present++;
}
const verifyMs = performance.now() - t0;
if (present !== proofsCount / 2) throw new Error(`expected ${proofsCount / 2} present keys, got ${present}`);
console.log(
  `proofs: prove+encode ${((proofsCount * 1000) / proveMs).toFixed(0)}/s, decode+verify ` +
    `${((proofsCount * 1000) / verifyMs).toFixed(0)}/s, ${proofBytes.toFixed(0)} bytes average ` +
    `(${proofsCount} keys, half absent)`,
);

await store.close();
rmSync(dir, { recursive: true, force: true });
