/**
 * A balance the tab has verified itself: `get_proof` from the node, checked against a header the tab's light
 * node verified (src/light/verify-account.ts `verifyAccountProof`, the account case of `verifyRecordProof`: the
 * record's key derived here and the proof checked with `verifyStateRecord`, src/state/proof-verify.ts). The
 * explorer, the wallet page and the widget call this; a proof that fails resolves to `{ ok: false, error }` —
 * callers show the error, never a balance.
 *
 *   const result = await fetchVerifiedBalance(lightNode.chain, client, 'rweft1…');
 *   if (result.ok) show(formatUnits(result.account.balance)); else showError(result.error.message);
 */
import { formatUnits } from '../../src/crypto/amount.ts';
import type { LightChainView } from '../../src/light/light-chain.ts';
import { verifyAccountProof, type VerifiedAccount } from '../../src/light/verify-account.ts';
import { getProof } from '../../packages/client/src/index.ts';
import type { RpcClient } from '../lib/node-client.ts';
import { checkWhenHeaderKnown } from './proof-wait.ts';

export type VerifiedBalance =
  | { readonly ok: true; readonly account: VerifiedAccount; readonly display: string }
  | { readonly ok: false; readonly error: { readonly reason: string; readonly message: string } };

export async function fetchVerifiedBalance(chain: LightChainView, client: RpcClient, address: string): Promise<VerifiedBalance> {
  const outcome = await checkWhenHeaderKnown(() => getProof(client, { address }), (proof) => verifyAccountProof(chain, address, proof));
  return outcome.ok ? { ok: true, account: outcome.value, display: formatUnits(outcome.value.balance) } : outcome;
}
