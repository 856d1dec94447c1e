/**
 * Block mass (Kaspa's idea, docs/transactions.md "Kinds and mass"): one number per transaction that weighs what it costs every
 * validator — its bytes, the signature operations it makes them run, and (for contract kinds) the gas it may burn —
 * against one per-block budget. The mempool orders by fee per unit of mass, so a transaction that makes validators
 * check sixteen signatures pays for them.
 *
 * The weights keep every block the older byte and count bounds allowed valid: 1 MB of single-signature transfers
 * (≤ 10,000 of them) weighs at most 1,000,000 + 10,000 × 100 = 2,000,000.
 */
import { blockMassMax } from '../limits.ts';
import type { MassParts } from './kind.ts';

export const massPerByte = 1;
export const massPerSigOp = 100;
/** Contract gas: a slot for the contracts issue, which sets its schedule; no kind burns gas yet. */
export const massPerGas = 1;

export function massOf(parts: MassParts): number {
  return parts.bytes * massPerByte + parts.sigOps * massPerSigOp + parts.gas * massPerGas;
}

export { blockMassMax };
