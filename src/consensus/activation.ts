/**
 * Versioned activation of consensus rule changes (Kaspa's hard-fork activation by DAA score; docs/consensus.md
 * "Activations"). A rule set applies to a block, and to the acceptance a block performs, from the DAA score its
 * network names on; below it the earlier rules hold unchanged, so every block, hash and state root made before
 * activation stays valid and identical.
 *
 * Rules v2 (the adversary review, docs/security.md): consensus totals in the state trie under the committed root,
 * escrow arbiters that can sign and disputes that end (src/kinds/escrow/escrow-rules-v2.ts). Mass was measured against
 * every kind's cost (bench/kind-costs.ts) and needed no change.
 */
/** A DAA score no chain reaches: the rule set never activates (regtest's default, so its pinned fixtures hold). */
export const neverActivates = Number.MAX_SAFE_INTEGER;

export interface Activations {
  /** DAA score from which rules v2 apply. */
  readonly rulesV2: number;
}

/** Whether rules v2 govern a block (or an acceptance, or a template) at `daaScore` on this network. */
export function rulesV2Active(params: { readonly activations: Activations }, daaScore: number): boolean {
  return daaScore >= params.activations.rulesV2;
}
