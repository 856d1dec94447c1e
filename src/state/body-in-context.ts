/**
 * Body in context (rusty-kaspa's stage name): the rules of a transaction that depend on state rather than on the
 * block alone — today a nonce that must be the sender's next and a balance or energy that must cover the spend;
 * later a session key's authority, a key image not yet spent, an escrow's status. Acceptance runs this stage for
 * every transaction of a mergeset in consensus order: one that fails it is "not accepted" (recorded with its reason
 * in the transaction index), never an invalid block (docs/state.md "Acceptance").
 *
 * The rules themselves are the kinds' (`checkContext`, then `apply` on the same state): this stage only orders them.
 */
import type { AnyTransaction } from '../kinds/transaction-codec.ts';
import type { Paid, TxStateView } from '../kinds/kind.ts';
import { kindOf } from '../kinds/registry.ts';

export type ContextOutcome =
  | { readonly accepted: true; readonly paid: Paid }
  | { readonly accepted: false; readonly reason: string };

/** Checks `tx` against `state` and, if it passes, applies it there. */
export function acceptInContext(state: TxStateView, tx: AnyTransaction): ContextOutcome {
  const kind = kindOf(tx);
  const reason = kind.checkContext(state, tx);
  if (reason !== undefined) return { accepted: false, reason };
  return { accepted: true, paid: kind.apply(state, tx) };
}
