/**
 * The full node's block verifiers (issue 29 "verify once"), sharing the process's verification cache with the
 * mempool's worker pool (server/crypto/verify-pool.ts, `nodeSigCache`):
 * - `preverify`: a block's proofs on a worker pool of its own, after admission and before the stages; valid
 *   answers land in the cache (src/chain/preverify-body.ts);
 * - `verifier`: the synchronous verifier the stages call — the cache first, libsecp256k1 on the main thread only
 *   for what is not there (a block whose pool run failed, or an invalid signature being refused).
 * So a block whose transactions this node admitted costs cache lookups, and a peer's block of unseen transactions
 * is verified on every core instead of the main thread alone.
 */
import type { Block } from '../../src/codec/block.ts';
import type { NetworkParams } from '../../src/consensus/params.ts';
import { cachedWitnessVerifier } from '../../src/crypto/cached-witness-verifier.ts';
import { witnessVerifierOver, type WitnessVerifier } from '../../src/crypto/witness-check.ts';
import { createBodyPreverifier } from '../../src/chain/preverify-body.ts';
import { fastVerifier } from './fast-verifier.ts';
import { createVerifyPool, nodeSigCache, type VerifyPool } from './verify-pool.ts';

export interface NodeBlockVerifiers {
  readonly verifier: WitnessVerifier;
  readonly preverify: (block: Block) => Promise<void>;
  readonly pool: VerifyPool;
  close(): Promise<void>;
}

export function createNodeBlockVerifiers(params: NetworkParams, options: { workers?: number } = {}): NodeBlockVerifiers {
  const pool = createVerifyPool({ cache: nodeSigCache, ...(options.workers === undefined ? {} : { workers: options.workers }) });
  return {
    verifier: cachedWitnessVerifier(witnessVerifierOver(fastVerifier), nodeSigCache),
    preverify: createBodyPreverifier(params, pool),
    pool,
    close: () => pool.close(),
  };
}
