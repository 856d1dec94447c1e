/**
 * A transaction the tab has placed itself: `get_transaction_proof` from the node, checked against a header the
 * tab's light node verified (src/light/verify-transaction.ts), the transfer read from its own bytes. Resolves to
 * `{ ok: false, error }` when the proof fails — callers show the error, never the node's figures as verified.
 */
import type { LightChainView } from '../../src/light/light-chain.ts';
import { verifyTransactionProof, type VerifiedTransaction } from '../../src/light/verify-transaction.ts';
import { getTransactionProof } from '../../packages/client/src/index.ts';
import type { RpcClient } from '../lib/node-client.ts';
import { checkWhenHeaderKnown } from './proof-wait.ts';

export type VerifiedInclusion =
  | { readonly ok: true; readonly transaction: VerifiedTransaction }
  | { readonly ok: false; readonly error: { readonly reason: string; readonly message: string } };

export async function fetchVerifiedTransaction(chain: LightChainView, client: RpcClient, hash: string): Promise<VerifiedInclusion> {
  const outcome = await checkWhenHeaderKnown(() => getTransactionProof(client, { hash }), (proof) => verifyTransactionProof(chain, hash, proof));
  return outcome.ok ? { ok: true, transaction: outcome.value } : outcome;
}
