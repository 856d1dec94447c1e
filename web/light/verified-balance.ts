/**
 * A balance the tab has verified itself: `get_proof` from the node, checked against a header the tab's light
 * node verified (src/light/verify-account.ts). The explorer, the wallet page and the widget call this; a proof that fails resolves
 * to `{ ok: false, error }` — callers show the error, never a balance.
 *
 *   const result = await fetchVerifiedBalance(lightNode.chain, client, 'rweft1…');
 *   if (result.ok) show(formatUnits(result.account.balance)); else showError(result.error.message);
 */
import { formatUnits } from '../../src/crypto/amount.ts';
import { LightProofError } from '../../src/light/errors.ts';
import type { LightChain } from '../../src/light/light-chain.ts';
import { verifyAccountProof, type VerifiedAccount } from '../../src/light/verify-account.ts';
import type { NodeClient } from '../lib/node-client.ts';

/** How long to wait for the light node to verify the header a fresh proof names (it may be one block behind). */
export const proofHeaderWaitMs = 5_000;
const proofHeaderPollMs = 200;

export type VerifiedBalance =
  | { readonly ok: true; readonly account: VerifiedAccount; readonly display: string }
  | { readonly ok: false; readonly error: { readonly reason: string; readonly message: string } };

export async function fetchVerifiedBalance(chain: LightChain, client: Pick<NodeClient, 'call'>, address: string): Promise<VerifiedBalance> {
  const deadline = Date.now() + proofHeaderWaitMs;
  for (;;) {
    try {
      const answer = await client.call('get_proof', { address });
      const account = verifyAccountProof(chain, address, answer);
      return { ok: true, account, display: formatUnits(account.balance) };
    } catch (error) {
      // The proof may name the node's newest block before the light node has verified it: wait, then ask again.
      if (error instanceof LightProofError && error.reason === 'header-unknown' && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, proofHeaderPollMs));
        continue;
      }
      const reason = error instanceof LightProofError ? error.reason : 'request-failed';
      return { ok: false, error: { reason, message: (error as Error).message } };
    }
  }
}
