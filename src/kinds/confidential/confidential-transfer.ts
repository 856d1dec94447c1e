/**
 * Kind 0x02, confidential_transfer: ring inputs to stealth outputs with hidden amounts and a public fee — privacy
 * level `high`. Layout, rules and the synthetic payer: ring-spend.ts.
 */
import { TxKind } from '../../codec/transaction-kinds.ts';
import { ringSpendKind, type SignedRingSpend } from './ring-spend.ts';

export interface ConfidentialTransferTransaction extends SignedRingSpend {
  readonly kind: typeof TxKind.ConfidentialTransfer;
}

export const confidentialTransferKind = ringSpendKind<ConfidentialTransferTransaction>(
  { tag: TxKind.ConfidentialTransfer, name: 'confidential_transfer', transparent: false },
  'high',
);
