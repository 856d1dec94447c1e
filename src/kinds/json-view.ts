/**
 * The one JSON view of a transaction's own fields (docs/api.md "Transaction"): its id, its kind's name, what its
 * kind shows (for transfers: from, to, amount, fee, nonce, use_energy) and its privacy level. A block's
 * `transactions` elements are exactly this; get_transaction, REST, the A2A skill, subscriptions and the web app add
 * where and how settled it is. Isomorphic, so the browser renders a transaction it proved with the same code.
 */
import { toHash0x } from '../util/bytes.ts';
import type { AnyTransaction } from './kind.ts';
import { kindOf } from './registry.ts';

/**
 * Privacy level a transaction shows (decision, docs/api.md "Privacy levels (decision)"): transparent transfers keep parties
 * pseudonymous and amounts public — `medium`; a kind that hides more says so through its `privacyLevel`
 * (confidential transfers — rings, stealth outputs, hidden amounts — are `high`).
 */
function privacyLevelOf(tx: AnyTransaction): string {
  return kindOf(tx).privacyLevel?.(tx) ?? 'medium';
}

export function transactionFields(tx: AnyTransaction, hash: Uint8Array, hrp: string): Record<string, unknown> {
  const kind = kindOf(tx);
  return { hash: toHash0x(hash), kind: kind.name, ...kind.view(tx, hrp), privacy_level: privacyLevelOf(tx) };
}
