/**
 * BIP340 verification speed: @noble/curves (the baseline, pure JS, what browsers run) against libsecp256k1 in Wasm
 * (tiny-secp256k1) and, when built, natively (server/crypto/native-verifier.ts) on one thread, and the worker pool
 * (server/crypto/verify-pool.ts, no cache in front) on every core. All verify the same valid signatures over 32-byte
 * messages, in the same run; each is timed for about `seconds` after a warm-up. Prints verifications/s and the
 * ratios against the baseline.
 *
 * Run: npx tsx bench/signatures.ts [seconds per contender = 4] [workers = all cores] [batch = 1000]
 */
import { availableParallelism } from 'node:os';
import { signSchnorr, xOnlyPointFromScalar } from 'tiny-secp256k1';
import { fastVerifier, verifySchnorrOnWasm } from '../server/crypto/fast-verifier.ts';
import { nativeSchnorr } from '../server/crypto/native-verifier.ts';
import { createVerifyPool } from '../server/crypto/verify-pool.ts';
import { nobleVerifier, type SchnorrCheck } from '../src/crypto/verifier.ts';

const seconds = Number(process.argv[2] ?? 4);
const workers = Number(process.argv[3] ?? availableParallelism());
const batchItems = Number(process.argv[4] ?? 1_000);

function corpus(count: number): SchnorrCheck[] {
  const items: SchnorrCheck[] = [];
  for (let i = 0; i < count; i++) {
    const secret = new Uint8Array(32).fill(1);
    new DataView(secret.buffer).setUint32(28, i + 1);
    const message = new Uint8Array(32);
    new DataView(message.buffer).setUint32(0, i * 2654435761);
    items.push({ signature: signSchnorr(message, secret, new Uint8Array(32)), message, publicKey: xOnlyPointFromScalar(secret) });
  }
  return items;
}

/** Runs `round` (verifying `perRound` signatures) until `seconds` pass; returns verifications per second. */
async function rate(perRound: number, round: () => boolean[] | Promise<boolean[]>): Promise<number> {
  const ok = await round(); // warm-up: JIT, Wasm tier-up, worker start
  if (!ok.every(Boolean)) throw new Error('bench corpus failed to verify');
  let done = 0;
  const start = performance.now();
  while (performance.now() - start < seconds * 1000) {
    await round();
    done += perRound;
  }
  return done / ((performance.now() - start) / 1000);
}

const items = corpus(batchItems);
const small = items.slice(0, Math.min(200, batchItems)); // noble is ~10× slower: a smaller round keeps it timed fairly
const noble = await rate(small.length, () => nobleVerifier.verifySchnorrBatch(small));
const wasm = await rate(items.length, () => items.map((c) => verifySchnorrOnWasm(c.signature, c.message, c.publicKey)));
const native = nativeSchnorr === undefined ? undefined : await rate(items.length, () => fastVerifier.verifySchnorrBatch(items));
const pool = createVerifyPool({ workers, cache: null });
await pool.ready();
const pooled = await rate(items.length, () => pool.verifySchnorrBatch(items));
await pool.close();

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
console.log(`BIP340 verifications/s (${seconds} s each, batch ${batchItems}, Node ${process.version})`);
console.log(`  @noble/curves, 1 thread (baseline)      ${fmt(noble)}`);
console.log(`  libsecp256k1 Wasm, 1 thread              ${fmt(wasm)}   ×${(wasm / noble).toFixed(2)} baseline`);
if (native === undefined) console.log('  libsecp256k1 native: not built (bin/build-native.mjs needs libsecp256k1-dev)');
else console.log(`  libsecp256k1 native, 1 thread            ${fmt(native)}   ×${(native / noble).toFixed(2)} baseline, ×${(native / wasm).toFixed(2)} Wasm`);
console.log(`  verify pool (${fastVerifier.name}), ${workers} workers  ${fmt(pooled)}   ×${(pooled / noble).toFixed(2)} baseline`);
