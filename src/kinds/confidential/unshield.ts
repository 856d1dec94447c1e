/**
 * Kind 0x04, unshield: ring inputs pay a public amount to a transparent address (plus optional hidden change), so
 * coins leave the confidential world. The spender stays hidden in its rings; the amount is public — privacy level
 * `medium`. Layout, rules and the synthetic payer: ring-spend.ts.
 */
import { TxKind } from '../../codec/transaction-kinds.ts';
import { ringSpendKind, type SignedRingSpend } from './ring-spend.ts';

export interface UnshieldTransaction extends SignedRingSpend {
  readonly kind: typeof TxKind.Unshield;
  readonly to: Uint8Array;
  readonly amount: bigint;
}

export const unshieldKind = ringSpendKind<UnshieldTransaction>({ tag: TxKind.Unshield, name: 'unshield', transparent: true }, 'medium');
