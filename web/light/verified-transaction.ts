/**
 * A transaction the tab has placed itself: `get_transaction_proof` from the node, checked against a header the
 * tab's light node verified (src/light/verify-transaction.ts), the transfer read from its own bytes. Resolves to
 * `{ ok: false, error }` when the proof fails — callers show the error, never the node's figures as verified.
 */
import { LightProofError } from '../../src/light/errors.ts';
import type { LightChain } from '../../src/light/light-chain.ts';
import { verifyTransactionProof, type VerifiedTransaction } from '../../src/light/verify-transaction.ts';
import type { NodeClient } from '../lib/node-client.ts';
import { proofHeaderWaitMs } from './verified-balance.ts';

const proofHeaderPollMs = 200;

export type VerifiedInclusion =
  | { readonly ok: true; readonly transaction: VerifiedTransaction }
  | { readonly ok: false; readonly error: { readonly reason: string; readonly message: string } };

export async function fetchVerifiedTransaction(chain: LightChain, client: Pick<NodeClient, 'call'>, hash: string): Promise<VerifiedInclusion> {
  const deadline = Date.now() + proofHeaderWaitMs;
  for (;;) {
    try {
      const answer = await client.call('get_transaction_proof', { hash });
      return { ok: true, transaction: verifyTransactionProof(chain, hash, answer) };
    } catch (error) {
      // The carrying block may be newer than the light node's tip: wait for it, then ask again.
      if (error instanceof LightProofError && error.reason === 'header-unknown' && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, proofHeaderPollMs));
        continue;
      }
      const reason = error instanceof LightProofError ? error.reason : 'request-failed';
      return { ok: false, error: { reason, message: (error as Error).message } };
    }
  }
}
