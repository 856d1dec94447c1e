/**
 * Block mass (Kaspa's idea, docs/transactions.md "Kinds and mass"): one number per transaction that weighs what it costs every
 * validator — its bytes, the signature operations it makes them run, and (for contract kinds) the gas it may burn —
 * against one per-block budget. The mempool orders by fee per unit of mass, so a transaction that makes validators
 * check sixteen signatures pays for them.
 *
 * The weights keep every block the older byte and count bounds allowed valid: 1 MB of single-signature transfers
 * (≤ 10,000 of them) weighs at most 1,000,000 + 10,000 × 100 = 2,000,000.
 *
 * From rules v4 (src/consensus/activation.ts) every transaction also weighs `massPerTransactionV4`: what accepting
 * any transaction costs a node besides its bytes and signatures — its state writes (a trie path each, one LMDB
 * random-key insert a node), its index rows, its share of the block's commit — most of a plain transfer's ~270 µs
 * (docs/performance.md "Line rate"). A block of the smallest transactions is the costliest to accept; with the term it
 * holds 884 plain transfers (2,262 mass each) instead of the 6,096 the bytes allowed, and is validated and accepted
 * within half the interval on the seed's minimum hardware.
 */
import type { MassParts, MassRules } from './kind.ts';

const massPerByte = 1;
const massPerSigOp = 100;
/** Rules v4: the mass every transaction weighs besides its parts. */
export const massPerTransactionV4 = 2_000;
/**
 * Contract gas per unit of mass (docs/contracts.md "Gas and mass"): a contract transaction weighs its gas limit / 50,
 * rounded up, so a block of nothing but contract calls holds 100 M gas — about 0.1 s of execution at the schedule's
 * 1 gas ≈ 1 ns on a desktop, a few times that in a phone's browser. Kinds that burn no gas weigh what they did.
 */
export const gasPerMass = 50;

/** A transaction's mass from its kind's parts, under the rules of the block that weighs it (absent: before v4). */
export function massOf(parts: MassParts, rules?: MassRules): number {
  const base = rules?.rulesV4 === true ? massPerTransactionV4 : 0;
  return base + parts.bytes * massPerByte + parts.sigOps * massPerSigOp + Math.ceil(parts.gas / gasPerMass);
}

