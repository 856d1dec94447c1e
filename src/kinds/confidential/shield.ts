/**
 * Kind 0x03, shield: transparent coins enter the confidential world. A standard address pays public amounts into
 * stealth outputs; each output's commitment is zeroCommit(amount) (mask 1, known to all), computed by consensus,
 * so nothing about the amount needs proving. Authorised like a transfer: one BIP340 signature of the key `from`
 * commits to, over the signing hash of the body; nonce, fee and use_energy work exactly as a transfer's.
 *
 *   body    = kind u8 | chain_id u32 | from [33] | fee u64 | nonce u64 | use_energy u8 | tx_public_key [32]
 *             | output_count u8 (1..16) | public_output × output_count   (codec.ts)
 *   witness = signature [64]
 *
 * Privacy level `medium`: the recipients are stealth one-time keys, the sender and the amounts are public.
 */
import { AddressType, addressBytes, encodeAddress } from '../../crypto/address.ts';
import { formatUnits } from '../../crypto/amount.ts';
import { signatureBytes } from '../../crypto/keys.ts';
import { zeroCommit } from '../../crypto/monero/commitment.ts';
import { encodePoint } from '../../crypto/monero/point.ts';
import { TxKind } from '../../codec/transaction-kinds.ts';
import { toHex } from '../../util/bytes.ts';
import type { TxKindModule, TxStateView } from '../kind.ts';

/**
 * Signature operations per output from rules v3 (1 before): accepting an output computes its public-amount
 * commitment (an ed25519 scalar multiplication, ~100 µs on Weft's own code) and its range proof share verifies, ~140 µs
 * in all against ~45 µs for a native BIP340 check (bench/kind-costs.ts, docs/transactions.md "Cost per mass").
 */
const sigOpsPerOutputV3 = 5;
import { withSignature } from '../signing.ts';
import { checkTransferContext, createTxReader, debitSender, failDecode, failEncode, spendFields, transferConflictKeys, type Fail } from '../value-transfer.ts';
import { checkCount, checkDistinct, checkPoint, checkU64, createWriter, pointBytes, readPublicOutput, checkPublicOutput, writePublicOutput, type PublicOutput } from './codec.ts';
import { confidentialOutputsMax } from './rules.ts';
import { checkOutputsFree, createPublicOutputs } from './state.ts';

interface UnsignedShield {
  readonly kind: typeof TxKind.Shield;
  readonly chainId: number;
  /** The paying standard address. */
  readonly from: Uint8Array;
  readonly fee: bigint;
  readonly nonce: bigint;
  readonly useEnergy: boolean;
  /** R = r·G: recipients derive each output's shared secret from it with their view key. */
  readonly txPublicKey: Uint8Array;
  readonly outputs: readonly PublicOutput[];
}
export interface ShieldTransaction extends UnsignedShield {
  readonly signature: Uint8Array;
}

function checkShieldFields(tx: UnsignedShield, fail: Fail): void {
  if (!Number.isInteger(tx.chainId) || tx.chainId < 0 || tx.chainId > 0xffff_ffff) fail(`transaction chain_id: got ${tx.chainId}, expected a u32`);
  if (!(tx.from instanceof Uint8Array) || tx.from.length !== addressBytes || tx.from[0] !== AddressType.Standard) {
    fail('transaction from: expected a 33-byte standard address');
  }
  checkU64('fee', tx.fee, fail);
  checkU64('nonce', tx.nonce, fail);
  if (typeof tx.useEnergy !== 'boolean') fail('transaction use_energy: expected a boolean');
  checkPoint('tx public key', tx.txPublicKey, 'public', fail);
  checkCount('output count', tx.outputs?.length, 1, confidentialOutputsMax, fail);
  tx.outputs.forEach((o, i) => checkPublicOutput(o, i, fail));
  checkDistinct('output one-time key', tx.outputs.map((o) => o.oneTimeKey), fail);
}

function encodeShieldBody(tx: UnsignedShield): Uint8Array {
  checkShieldFields(tx, failEncode);
  const w = createWriter();
  w.u8(TxKind.Shield);
  w.u32(tx.chainId);
  w.bytes(tx.from);
  w.u64(tx.fee);
  w.u64(tx.nonce);
  w.u8(tx.useEnergy ? 1 : 0);
  w.bytes(tx.txPublicKey);
  w.u8(tx.outputs.length);
  for (const o of tx.outputs) writePublicOutput(w, o);
  return w.finish();
}

function shieldBodyBytes(tx: UnsignedShield): number {
  return 1 + 4 + addressBytes + 8 + 8 + 1 + pointBytes + 1 + tx.outputs.length * (pointBytes + 1 + 8);
}

function shieldedAmount(tx: UnsignedShield): bigint {
  return tx.outputs.reduce((sum, o) => sum + o.amount, 0n);
}

/** The transparent half, as a transfer of the total to nobody: nonce, then balance (or energy) for amount + fee. */
function asTransfer(tx: ShieldTransaction) {
  return { chainId: tx.chainId, from: tx.from, to: tx.from, amount: shieldedAmount(tx), fee: tx.fee, nonce: tx.nonce, useEnergy: tx.useEnergy, memo: new Uint8Array(0) };
}

function applyShield(state: TxStateView, tx: ShieldTransaction) {
  const paid = debitSender(state, tx, shieldedAmount(tx));
  createPublicOutputs(state, tx.outputs, tx.outputs.map((o) => encodePoint(zeroCommit(o.amount))));
  return paid;
}

export const shieldKind: TxKindModule<ShieldTransaction> = {
  tag: TxKind.Shield,
  name: 'shield',

  decode(bytes) {
    const read = createTxReader(bytes);
    const kind = read.u8('kind');
    if (kind !== TxKind.Shield) failDecode(`transaction kind: got ${kind}, expected ${TxKind.Shield}`);
    const chainId = read.u32('chain_id');
    const from = read.bytes('from', addressBytes);
    const fee = read.u64('fee');
    const nonce = read.u64('nonce');
    const energyByte = read.u8('use_energy');
    if (energyByte > 1) failDecode(`transaction use_energy: got ${energyByte}, expected 0 or 1`);
    const txPublicKey = read.bytes('tx public key', pointBytes);
    const count = read.u8('output count');
    checkCount('output count', count, 1, confidentialOutputsMax, failDecode);
    const outputs = Array.from({ length: count }, (_, i) => readPublicOutput(read, i));
    const tx: ShieldTransaction = { kind: TxKind.Shield, chainId, from, fee, nonce, useEnergy: energyByte === 1, txPublicKey, outputs, signature: read.bytes('signature', signatureBytes) };
    if (read.remaining() !== 0) failDecode(`transaction: ${read.remaining()} trailing bytes after the witness`);
    checkShieldFields(tx, failDecode);
    return tx;
  },
  encode(tx) {
    return withSignature(encodeShieldBody(tx), tx.signature, failEncode);
  },
  encodeBody: encodeShieldBody,
  bodyBytes: shieldBodyBytes,

  witnessChecks: (tx, message) => [{ scheme: 'bip340', signature: tx.signature, message, publicKey: tx.from.subarray(1) }],
  spend: (tx) => ({ payer: tx.from, nonce: tx.nonce, amount: shieldedAmount(tx), fee: tx.fee, useEnergy: tx.useEnergy }),
  conflictKeys: (tx) => [...transferConflictKeys(asTransfer(tx)), ...tx.outputs.map((o) => `confidential_output:${toHex(o.oneTimeKey)}`)],
  // One signature, and one zeroCommit scalar multiplication per output at acceptance.
  mass: (tx, bytes, rules) => ({ bytes, sigOps: 1 + (rules?.rulesV3 === true ? sigOpsPerOutputV3 : 1) * tx.outputs.length, gas: 0 }),

  checkContext: (state, tx) => checkTransferContext(state, asTransfer(tx)) ?? checkOutputsFree(state, tx.outputs.map((o) => o.oneTimeKey)),
  apply: applyShield,
  parties: (tx) => [{ address: tx.from, role: 'sender', amount: 0n }],
  view(tx, hrp) {
    return {
      from: encodeAddress(hrp, tx.from),
      ...spendFields(shieldedAmount(tx), tx.fee, tx.nonce, tx.useEnergy),
      tx_public_key: toHex(tx.txPublicKey),
      outputs: tx.outputs.map((o) => ({ one_time_key: toHex(o.oneTimeKey), view_tag: o.viewTag, amount_exact: formatUnits(o.amount) })),
    };
  },
  privacyLevel: () => 'medium',
};
