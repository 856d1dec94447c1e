/**
 * The consensus parameters of the confidential world (docs/privacy.md "The ledger"): ring size per privacy level,
 * output maturity and the per-transaction bounds. Kinds are pure modules with no network handle, so the rules are
 * keyed by the transaction's chain id — which every signature and CLSAG already commits to — instead of being
 * read from NetworkParams: mainnet (1) and testnet (2) fix rings at 16 and mature outputs after 100 DAA scores;
 * every other chain (devnet 1337, regtest 1338, unit tests) allows small rings and matures outputs after 1, so
 * tests stay fast without weakening the public networks.
 */

/** Monero's ring size since HF v15: one size for everyone, so the size itself is no fingerprint. */
export const highRingSize = 16;
/** Chains whose rings are fixed at `highRingSize`: the public networks. */
const productionChainIds: ReadonlySet<number> = new Set([1, 2]);

/** Inputs and outputs per transaction: an aggregated BP+ covers at most 16 outputs (bulletproofs-plus/generators.ts). */
export const confidentialInputsMax = 16;
export const confidentialOutputsMax = 16;
/** DAA scores an output waits on a public network before it may be spent or used as a decoy (Kaspa's coinbase maturity). */
const productionMaturity = 100;
/** On test chains an output is spendable from the next merging block on. */
const testMaturity = 1;

export interface ConfidentialRules {
  /** Ring sizes a `high` transaction may use on this chain (inclusive). */
  readonly ringSizeMin: number;
  readonly ringSizeMax: number;
  /** An output created at DAA score d may be a ring member from DAA score d + maturity on. */
  readonly maturity: number;
}

const production: ConfidentialRules = Object.freeze({ ringSizeMin: highRingSize, ringSizeMax: highRingSize, maturity: productionMaturity });
const test: ConfidentialRules = Object.freeze({ ringSizeMin: 1, ringSizeMax: highRingSize, maturity: testMaturity });

export function confidentialRules(chainId: number): ConfidentialRules {
  return productionChainIds.has(chainId) ? production : test;
}

export function isMature(createdDaaScore: bigint, now: number, chainId: number): boolean {
  return createdDaaScore + BigInt(confidentialRules(chainId).maturity) <= BigInt(now);
}
