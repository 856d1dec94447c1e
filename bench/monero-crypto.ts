/**
 * Privacy cryptography timings (src/crypto/monero, pure noble, one thread): CLSAG sign and verify at ring size 16,
 * Bulletproofs+ prove and verify for a 2-output proof, and a batch of 16 such proofs verified at once. Prints
 * milliseconds per operation (median of `runs`); no assertions. Randomness is a fixed keccak stream so runs repeat.
 *
 * Run: npx tsx bench/monero-crypto.ts [runs = 5]
 */
import { keccak_256 } from '@noble/hashes/sha3.js';
import { signClsag, verifyClsag } from '../src/crypto/monero/clsag.ts';
import { commit } from '../src/crypto/monero/commitment.ts';
import { proveBulletproofPlus } from '../src/crypto/monero/bulletproofs-plus/prove.ts';
import { verifyBulletproofPlus, verifyBulletproofsPlus } from '../src/crypto/monero/bulletproofs-plus/verify.ts';
import { generators } from '../src/crypto/monero/bulletproofs-plus/generators.ts';
import { encodePoint, mulBase } from '../src/crypto/monero/point.ts';
import { randomScalar, type RandomBytes } from '../src/crypto/monero/scalar.ts';

const runs = Number(process.argv[2] ?? 5);
const ringSize = 16;
const outputs = 2;
const batch = 16;

let counter = 0;
const random: RandomBytes = (length) => {
  const out = new Uint8Array(length);
  for (let off = 0; off < length; off += 32) out.set(keccak_256(new TextEncoder().encode(`bench ${counter++}`)).subarray(0, length - off), off);
  return out;
};

function median(times: number[]): number {
  const sorted = [...times].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function time<T>(label: string, f: () => T, per = 1): T {
  let result = f(); // warm-up
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    result = f();
    times.push((performance.now() - start) / per);
  }
  console.log(`${label.padEnd(48)} ${median(times).toFixed(1).padStart(9)} ms`);
  return result;
}

const members = Array.from({ length: ringSize }, () => {
  const secretKey = randomScalar(random);
  const mask = randomScalar(random);
  return { secretKey, mask, amount: 1_000n, publicKey: encodePoint(mulBase(secretKey)), commitment: encodePoint(commit(mask, 1_000n)) };
});
const signer = 5;
const pseudoMask = randomScalar(random);
const input = {
  message: random(32),
  ring: members.map(({ publicKey, commitment }) => ({ publicKey, commitment })),
  pseudoOut: encodePoint(commit(pseudoMask, 1_000n)),
  secretIndex: signer,
  secretKey: members[signer]!.secretKey,
  commitmentMaskDifference: members[signer]!.mask - pseudoMask,
};

console.log(`node ${process.version}, ${runs} runs, median`);
const { signature, keyImage } = time(`CLSAG sign, ring ${ringSize}`, () => signClsag(input, random));
time(`CLSAG verify, ring ${ringSize}`, () => verifyClsag({ ...input, keyImage }, signature));
const start = performance.now();
generators(64 * outputs);
console.log(`${'BP+ generators for 2 outputs (once per process)'.padEnd(48)} ${(performance.now() - start).toFixed(1).padStart(9)} ms`);
const rangeOutputs = Array.from({ length: outputs }, (_, i) => ({ amount: 10_000n + BigInt(i), mask: randomScalar(random) }));
const proof = time(`BP+ prove, ${outputs} outputs`, () => proveBulletproofPlus(rangeOutputs, random));
time(`BP+ verify, ${outputs} outputs`, () => verifyBulletproofPlus(proof));
const proofs = Array.from({ length: batch }, () => proveBulletproofPlus(rangeOutputs, random));
time(`BP+ batch verify, ${batch} × ${outputs} outputs (per proof)`, () => verifyBulletproofsPlus(proofs), batch);
