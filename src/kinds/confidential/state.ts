/**
 * The state rules the confidential kinds share, over the `confidential_output` and `key_image` records
 * (records.ts). Reasons are snake_case and land in the transaction index as the "not accepted" reason:
 *
 *   ring_size            — the ring size is not one this chain allows for `high` (rules.ts)
 *   key_image_spent      — a key image is already in the key-image set (a double spend)
 *   ring_member_unknown  — a ring member names no confidential output
 *   ring_member_mismatch — a ring member's commitment is not the one the output was created with
 *   ring_member_immature — a ring member was created less than `maturity` DAA scores ago
 *   output_exists        — an output's one-time key is already an output (the burning bug, records.ts)
 */
import { encodeScalar } from '../../crypto/monero/scalar.ts';
import { equalBytes } from '../../util/bytes.ts';
import type { TxStateView } from '../kind.ts';
import type { HiddenOutput, PublicOutput, RingInput } from './codec.ts';
import { decodeConfidentialOutputRecord, encodeConfidentialOutputRecord, encodeKeyImageRecord } from './records.ts';
import { confidentialRules, isMature } from './rules.ts';

export type ConfidentialReason =
  | 'ring_size'
  | 'key_image_spent'
  | 'ring_member_unknown'
  | 'ring_member_mismatch'
  | 'ring_member_immature'
  | 'output_exists'
  | 'balance_mismatch';

export function checkOutputsFree(state: TxStateView, oneTimeKeys: readonly Uint8Array[]): ConfidentialReason | undefined {
  for (const key of oneTimeKeys) if (state.record('confidential_output', key) !== undefined) return 'output_exists';
  return undefined;
}

/** Key images unspent, and every ring member an existing, matching, mature output of this chain's rules. */
export function checkRings(state: TxStateView, inputs: readonly RingInput[], chainId: number): ConfidentialReason | undefined {
  const rules = confidentialRules(chainId);
  for (const input of inputs) {
    if (input.ring.length < rules.ringSizeMin || input.ring.length > rules.ringSizeMax) return 'ring_size';
  }
  for (const input of inputs) if (state.record('key_image', input.keyImage) !== undefined) return 'key_image_spent';
  for (const input of inputs) {
    for (const member of input.ring) {
      const stored = state.record('confidential_output', member.oneTimeKey);
      if (stored === undefined) return 'ring_member_unknown';
      const record = decodeConfidentialOutputRecord(stored);
      if (!equalBytes(record.commitment, member.commitment)) return 'ring_member_mismatch';
      if (!isMature(record.createdDaaScore, state.daaScore, chainId)) return 'ring_member_immature';
    }
  }
  return undefined;
}

export function markKeyImagesSpent(state: TxStateView, inputs: readonly RingInput[], txHash: Uint8Array): void {
  const value = encodeKeyImageRecord({ txHash, daaScore: BigInt(state.daaScore) });
  for (const input of inputs) state.setRecord('key_image', input.keyImage, value);
}

export function createHiddenOutputs(state: TxStateView, outputs: readonly HiddenOutput[]): void {
  for (const o of outputs) {
    const record = { commitment: o.commitment, viewTag: o.viewTag, amountKind: 'hidden' as const, amount: o.encryptedAmount, createdDaaScore: BigInt(state.daaScore) };
    state.setRecord('confidential_output', o.oneTimeKey, encodeConfidentialOutputRecord(record));
  }
}

/** Public-amount outputs carry zeroCommit(amount) = 1·G + amount·H: computed by consensus, never by the sender. */
export function createPublicOutputs(state: TxStateView, outputs: readonly PublicOutput[], commitments: readonly Uint8Array[]): void {
  outputs.forEach((o, i) => {
    const amount = encodeScalar(o.amount).slice(0, 8);
    const record = { commitment: commitments[i]!, viewTag: o.viewTag, amountKind: 'public' as const, amount, createdDaaScore: BigInt(state.daaScore) };
    state.setRecord('confidential_output', o.oneTimeKey, encodeConfidentialOutputRecord(record));
  });
}
