/**
 * Block mass (Kaspa's idea, docs/transactions.md "Kinds and mass"): one number per transaction that weighs what it costs every
 * validator — its bytes, the signature operations it makes them run, and (for contract kinds) the gas it may burn —
 * against one per-block budget. The mempool orders by fee per unit of mass, so a transaction that makes validators
 * check sixteen signatures pays for them.
 *
 * The weights keep every block the older byte and count bounds allowed valid: 1 MB of single-signature transfers
 * (≤ 10,000 of them) weighs at most 1,000,000 + 10,000 × 100 = 2,000,000.
 */
import type { MassParts } from './kind.ts';

const massPerByte = 1;
const massPerSigOp = 100;
/**
 * Contract gas per unit of mass (docs/contracts.md "Gas and mass"): a contract transaction weighs its gas limit / 50,
 * rounded up, so a block of nothing but contract calls holds 100 M gas — about 0.1 s of execution at the schedule's
 * 1 gas ≈ 1 ns on a desktop, a few times that in a phone's browser. Kinds that burn no gas weigh what they did.
 */
export const gasPerMass = 50;

export function massOf(parts: MassParts): number {
  return parts.bytes * massPerByte + parts.sigOps * massPerSigOp + Math.ceil(parts.gas / gasPerMass);
}

