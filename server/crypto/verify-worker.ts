/**
 * Worker-thread side of server/crypto/verify-pool.ts: verifies packed chunks of BIP340 signatures on libsecp256k1
 * (the native addon in one call when it is built, else Wasm one by one),
 * and lists of other proof checks through src/crypto/witness-check.ts's scheme table, answering one byte per item
 * (1 valid, 0 not). Loaded through tsx by the pool's bootstrap, so it stays TypeScript.
 */
import { parentPort } from 'node:worker_threads';
import { fastVerifySchnorr } from './fast-verifier.ts';
import { nativeSchnorr } from './native-verifier.ts';
import { assert } from '../../src/errors.ts';
import { checkWitnesses } from '../../src/crypto/witness-check.ts';
import type { VerifyChunkRequest, VerifyChunkResponse, VerifyProofsRequest } from './verify-pool.ts';

const port = parentPort;
assert(port !== null, 'verify-worker.ts runs only in a worker thread');

port.on('message', (request: (VerifyChunkRequest | VerifyProofsRequest) & { readonly id: number }) => {
  if ('proofs' in request) {
    const results = Uint8Array.from(checkWitnesses(request.proofs), (ok) => (ok ? 1 : 0));
    const response: VerifyChunkResponse = { id: request.id, results };
    port.postMessage(response, [results.buffer]);
    return;
  }
  const { id, count, signatures, messages, publicKeys } = request;
  const results = new Uint8Array(count);
  if (nativeSchnorr !== undefined) {
    nativeSchnorr.verifyBatch(signatures, messages, publicKeys, results);
    const response: VerifyChunkResponse = { id, results };
    port.postMessage(response, [results.buffer]);
    return;
  }
  for (let i = 0; i < count; i++) {
    const ok = fastVerifySchnorr(
      signatures.subarray(64 * i, 64 * i + 64),
      messages.subarray(32 * i, 32 * i + 32),
      publicKeys.subarray(32 * i, 32 * i + 32),
    );
    results[i] = ok ? 1 : 0;
  }
  const response: VerifyChunkResponse = { id, results };
  port.postMessage(response, [results.buffer]);
});
