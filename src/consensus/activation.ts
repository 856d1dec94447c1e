/**
 * Versioned activation of consensus rule changes (Kaspa's hard-fork activation by DAA score; docs/consensus.md
 * "Activations"). A rule set applies to a block, and to the acceptance a block performs, from the DAA score its
 * network names on; below it the earlier rules hold unchanged, so every block, hash and state root made before
 * activation stays valid and identical.
 *
 * Rules v2 (the adversary review, docs/security.md): consensus totals in the state trie under the committed root,
 * escrow arbiters that can sign and disputes that end (src/kinds/escrow/escrow-rules-v2.ts). Mass was measured against
 * every kind's cost (bench/kind-costs.ts) and needed no change then.
 *
 * Rules v3 (the line rate, issue 29): mass re-priced once BIP340 checks got ~6x cheaper (the native verifier): a
 * CLSAG ring member (src/kinds/confidential/ring-spend.ts) and a shield output (shield.ts) weigh what they cost a
 * validator against a Schnorr check, so no kind costs more than twice a transfer's time per unit of mass and a block
 * at the mass limit stays within the interval's budget (docs/consensus.md "Activations").
 *
 * Rules v4 (the line rate, issue 29, "the worst block"): every transaction weighs a fixed mass on top of its parts
 * (src/kinds/mass.ts), for what each costs a node whatever its size — its state writes, its index rows, its share of
 * the commit — so a block full of the smallest transactions, the costliest block to accept, fits the interval
 * (docs/consensus.md "Activations", docs/performance.md "Line rate").
 */
import type { MassRules } from '../kinds/kind.ts';

/** A DAA score no chain reaches: the rule set never activates (regtest's default, so its pinned fixtures hold). */
export const neverActivates = Number.MAX_SAFE_INTEGER;

export interface Activations {
  /** DAA score from which rules v2 apply. */
  readonly rulesV2: number;
  /** DAA score from which rules v3 (mass re-priced) apply. */
  readonly rulesV3: number;
  /** DAA score from which rules v4 (a mass per transaction) apply. */
  readonly rulesV4: number;
}

/** Whether rules v2 govern a block (or an acceptance, or a template) at `daaScore` on this network. */
export function rulesV2Active(params: { readonly activations: Activations }, daaScore: number): boolean {
  return daaScore >= params.activations.rulesV2;
}

/** Whether rules v3 (mass re-priced) govern a block (or a template, or the next block's admission) at `daaScore`. */
function rulesV3Active(params: { readonly activations: Activations }, daaScore: number): boolean {
  return daaScore >= params.activations.rulesV3;
}

/** Whether rules v4 (a fixed mass per transaction) govern a block (or a template, or the next block's admission). */
function rulesV4Active(params: { readonly activations: Activations }, daaScore: number): boolean {
  return daaScore >= params.activations.rulesV4;
}

/** The mass rules a block at `daaScore` is weighed by: every place that weighs a transaction asks this. */
export function massRulesAt(params: { readonly activations: Activations }, daaScore: number): MassRules {
  return { rulesV3: rulesV3Active(params, daaScore), rulesV4: rulesV4Active(params, daaScore) };
}
