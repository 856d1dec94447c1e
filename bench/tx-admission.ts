/**
 * Transaction admission rate: decode + hashes + signature verification + state checks (nonce window, balance with
 * pending spends, bounds) through `createMempool().addBatch`, against the raw @noble/curves BIP340 verification
 * rate on one thread, measured in the same run on the same signatures. The admission contenders:
 *   - the node's configuration: the verify pool (libsecp256k1, native or Wasm, on one worker per core), batches kept in flight
 *     so the main thread decodes and checks state while workers verify;
 *   - the node's libsecp256k1 verifier on the main thread alone (for reference).
 * Each contender admits the whole corpus into a fresh pool, repeatedly for about `seconds`.
 *
 * Run: npx tsx bench/tx-admission.ts [seconds = 2] [transactions = 4000] [batch = 1000] [in flight = 3] [rounds = 3]
 */
import { availableParallelism } from 'node:os';
import { fastVerifier } from '../server/crypto/fast-verifier.ts';
import { createVerifyPool } from '../server/crypto/verify-pool.ts';
import { installWasmBlake3 } from '../server/crypto/wasm-blake3.ts';
import type { SchnorrWitnessCheck } from '../src/crypto/witness-check.ts';
import { nobleVerifier, type AsyncSignatureVerifier, type SignatureVerifier } from '../src/crypto/verifier.ts';
import { createMempool } from '../src/mempool/mempool.ts';
import { parseTransaction } from '../src/mempool/entry.ts';
import { systemClock } from '../src/util/clock.ts';
import { addressOfKey, createTestAccounts, signedTransfer, testChainId, testKey } from '../test/helpers/mempool-fixtures.ts';

// As the node runs (server/node/start/open-chain.ts): BLAKE3 on the Wasm kernel for ids and signing hashes.
await installWasmBlake3();
const seconds = Number(process.argv[2] ?? 2);
const txCount = Number(process.argv[3] ?? 4_000);
const batchTx = Number(process.argv[4] ?? 1_000);
const inFlight = Number(process.argv[5] ?? 3);
const rounds = Number(process.argv[6] ?? 3);
const noncesPerSender = 10;

const accounts = createTestAccounts();
const corpus: Uint8Array[] = [];
for (let s = 0; corpus.length < txCount; s++) {
  const key = testKey(10_000 + s);
  accounts.set(addressOfKey(key), { balance: 1_000_000_000n });
  for (let nonce = 0; nonce < noncesPerSender && corpus.length < txCount; nonce++) {
    corpus.push(signedTransfer({ key, nonce: BigInt(nonce), amount: 1_000n + BigInt(s), fee: 10_000n + BigInt(nonce) }));
  }
}
const batches: Uint8Array[][] = [];
for (let i = 0; i < corpus.length; i += batchTx) batches.push(corpus.slice(i, i + batchTx));

/** Verifications/s of @noble on one thread over the first 300 signatures of the corpus. */
function nobleRate(): number {
  const checks = corpus.slice(0, 300).map((b) => parseTransaction(b).checks![0]! as SchnorrWitnessCheck);
  if (!nobleVerifier.verifySchnorrBatch(checks).every(Boolean)) throw new Error('corpus does not verify');
  let done = 0;
  const start = performance.now();
  while (performance.now() - start < seconds * 1000) {
    nobleVerifier.verifySchnorrBatch(checks);
    done += checks.length;
  }
  return done / ((performance.now() - start) / 1000);
}

/** Admits the corpus into fresh pools until `seconds` pass; transactions admitted per second. */
async function admissionRate(verifier: SignatureVerifier | AsyncSignatureVerifier, window: number, warm: boolean): Promise<number> {
  const round = async () => {
    const pool = createMempool({
      params: { chainId: testChainId },
      accounts,
      verifier,
      clock: systemClock,
      limits: { txCountMax: txCount, bytesMax: txCount * 200, batchTxMax: batchTx },
    });
    let next = 0;
    const lane = async () => {
      while (next < batches.length) {
        const results = await pool.addBatch(batches[next++]!);
        if (!results.every((r) => r.ok)) throw new Error(`admission failed: ${results.find((r) => !r.ok && r.error)}`);
      }
    };
    await Promise.all(Array.from({ length: window }, lane));
    if (pool.size !== corpus.length) throw new Error(`pool holds ${pool.size}, expected ${corpus.length}`);
  };
  if (warm) await round(); // warm-up: JIT, Wasm tier-up, worker start
  let done = 0;
  const start = performance.now();
  while (performance.now() - start < seconds * 1000) {
    await round();
    done += corpus.length;
  }
  return done / ((performance.now() - start) / 1000);
}

// The machine is shared: contenders alternate over `rounds` rounds and each reports its median, so a burst of
// load elsewhere skews every contender alike instead of one.
const pool = createVerifyPool();
await pool.ready();
const samples = { noble: [] as number[], single: [] as number[], pooled: [] as number[] };
for (let r = 0; r < rounds; r++) {
  samples.noble.push(nobleRate());
  samples.single.push(await admissionRate(fastVerifier, 1, r === 0));
  samples.pooled.push(await admissionRate(pool, inFlight, r === 0));
}
await pool.close();
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const [noble, single, pooled] = [median(samples.noble), median(samples.single), median(samples.pooled)];

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
console.log(`Transaction admission (${txCount} transfers, batches of ${batchTx}, median of ${rounds} alternating rounds of ~${seconds} s, Node ${process.version}, ${availableParallelism()} cores)`);
console.log(`  @noble/curves BIP340 verify, 1 thread (baseline)      ${fmt(noble)}/s`);
console.log(`  admission, ${fastVerifier.name} on the main thread         ${fmt(single)}/s   ×${(single / noble).toFixed(2)} baseline`);
console.log(`  admission, verify pool ×${pool.workers} + ${inFlight} batches in flight   ${fmt(pooled)}/s   ×${(pooled / noble).toFixed(2)} baseline`);
