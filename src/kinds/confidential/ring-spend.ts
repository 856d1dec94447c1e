/**
 * Spending confidential outputs with rings (RingCT, docs/privacy.md "The ledger"): the shared module behind kind
 * 0x02 confidential_transfer (hidden outputs only) and kind 0x04 unshield (a public amount to a transparent
 * address, with optional hidden change).
 *
 *   body    = kind u8 | chain_id u32 | [unshield: to [33] | amount u64 (> 0)] | fee u64 | ring_size u8
 *             | input_count u8 (1..16) | output_count u8 (transfer 1..16, unshield 0..16) | tx_public_key [32]
 *             | ring_input × input_count | hidden_output × output_count          (codec.ts)
 *             | range_proof [BP+ bytes for output_count; absent when 0]         (proof-codec.ts)
 *   witness = CLSAG [32·(ring_size + 2)] × input_count, each over the signing hash of the body
 *
 * Ring members carry their one-time key and commitment, so the CLSAG and range proof checks need no state and run
 * batched on the witness-check port's workers; checkContext then holds each member to the stored output.
 * Balance (RingCT): Σ pseudo_out = Σ output commitment + (fee + amount)·H; the range proof keeps every hidden
 * output in [0, 2^64) and each CLSAG ties its pseudo-output to the amount of one ring member.
 *
 * No transparent payer exists, so `spend` names a synthetic one: 0xff ‖ the first key image (0xff is no address
 * type, so no account can own it). Its account is always empty: nonce 0, amount 0, and `feeFromCommitments` tells
 * the mempool the fee is not taken from any balance. Two pool transactions with the same first key image are
 * thus a replacement by fee (same payer and nonce), and any other shared key image is a conflict key.
 */
import { encodeAddress } from '../../crypto/address.ts';
import { formatUnits } from '../../crypto/amount.ts';
import { blake3 } from '../../crypto/blake3.ts';
import { H } from '../../crypto/monero/commitment.ts';
import { cachedPublicPoint, cachedSubgroupPoint } from '../../crypto/monero/decoded-points.ts';
import { mulPublic, Point } from '../../crypto/monero/point.ts';
import { bulletproofPlusBytes, clsagBytes } from '../../crypto/monero/proof-codec.ts';
import { bulletproofPlusScheme, clsagScheme } from '../../crypto/monero/proof-schemes.ts';
import { logPaddedOutputs } from '../../crypto/monero/bulletproofs-plus/common.ts';
import { AddressType, addressBytes } from '../../crypto/address.ts';
import type { WitnessCheck } from '../../crypto/witness-check.ts';
import { concatBytes, toHex } from '../../util/bytes.ts';
import type { MassRules, Paid, TxKindModule, TxStateView } from '../kind.ts';
import { createTxReader, failDecode, failEncode, type Fail } from '../value-transfer.ts';
import {
  checkCount,
  checkDistinct,
  checkHiddenOutput,
  checkPoint,
  checkRingInput,
  checkU64,
  createWriter,
  hiddenOutputBytes,
  pointBytes,
  readHiddenOutput,
  readRingInput,
  ringMemberBytes,
  writeHiddenOutput,
  writeRingInput,
  type HiddenOutput,
  type RingInput,
} from './codec.ts';
import { confidentialInputsMax, confidentialOutputsMax, highRingSize } from './rules.ts';
import { checkOutputsFree, checkRings, createHiddenOutputs, markKeyImagesSpent, type ConfidentialReason } from './state.ts';

/** The address-type byte of the synthetic payer: no address type, so it never names a real account. */
const ringPayerType = 0xff;

export interface RingSpendFields {
  readonly kind: number;
  readonly chainId: number;
  readonly fee: bigint;
  readonly txPublicKey: Uint8Array;
  readonly inputs: readonly RingInput[];
  readonly outputs: readonly HiddenOutput[];
  /** One aggregated BP+ over every output commitment; empty when there are no outputs. */
  readonly rangeProof: Uint8Array;
  /** Unshield only: the transparent recipient and the public amount it receives. */
  readonly to?: Uint8Array;
  readonly amount?: bigint;
}
export interface SignedRingSpend extends RingSpendFields {
  /** One CLSAG per input, in input order (proof-codec.ts layout). */
  readonly signatures: readonly Uint8Array[];
}

interface Shape {
  readonly tag: number;
  readonly name: string;
  /** Unshield: a transparent recipient and amount, and outputs may be none. */
  readonly transparent: boolean;
}

const ringSizeOf = (tx: RingSpendFields): number => tx.inputs[0]?.ring.length ?? 0;

function checkFields(shape: Shape, tx: RingSpendFields, fail: Fail): void {
  if (tx.kind !== shape.tag) fail(`transaction kind: got ${tx.kind}, expected ${shape.tag}`);
  if (!Number.isInteger(tx.chainId) || tx.chainId < 0 || tx.chainId > 0xffff_ffff) fail(`transaction chain_id: got ${tx.chainId}, expected a u32`);
  if (shape.transparent) {
    if (!(tx.to instanceof Uint8Array) || tx.to.length !== addressBytes || (tx.to[0] !== AddressType.Standard && tx.to[0] !== AddressType.Multisig)) {
      fail('transaction to: expected a 33-byte address');
    }
    checkU64('amount', tx.amount!, fail);
    if (tx.amount === 0n) fail('transaction amount: got 0, expected at least 1');
  } else if (tx.to !== undefined || tx.amount !== undefined) fail(`transaction: ${shape.name} has no transparent recipient`);
  checkU64('fee', tx.fee, fail);
  checkPoint('tx public key', tx.txPublicKey, 'public', fail);
  checkCount('input count', tx.inputs?.length, 1, confidentialInputsMax, fail);
  checkCount('ring size', ringSizeOf(tx), 1, highRingSize, fail);
  checkCount('output count', tx.outputs?.length, shape.transparent ? 0 : 1, confidentialOutputsMax, fail);
  tx.inputs.forEach((input, i) => checkRingInput(input, i, ringSizeOf(tx), fail));
  tx.outputs.forEach((o, i) => checkHiddenOutput(o, i, fail));
  checkDistinct('key image', tx.inputs.map((i) => i.keyImage), fail);
  checkDistinct('output one-time key', tx.outputs.map((o) => o.oneTimeKey), fail);
  const proofBytes = tx.outputs.length === 0 ? 0 : bulletproofPlusBytes(tx.outputs.length);
  if (!(tx.rangeProof instanceof Uint8Array) || tx.rangeProof.length !== proofBytes) fail(`transaction range proof: expected ${proofBytes} bytes`);
}

function bodyBytes(shape: Shape, tx: RingSpendFields): number {
  const n = ringSizeOf(tx);
  const transparent = shape.transparent ? addressBytes + 8 : 0;
  const inputs = tx.inputs.length * (n * ringMemberBytes + 2 * pointBytes);
  return 1 + 4 + transparent + 8 + 3 + pointBytes + inputs + tx.outputs.length * hiddenOutputBytes + tx.rangeProof.length;
}

function encodeBody(shape: Shape, tx: RingSpendFields): Uint8Array {
  checkFields(shape, tx, failEncode);
  const w = createWriter();
  w.u8(shape.tag);
  w.u32(tx.chainId);
  if (shape.transparent) {
    w.bytes(tx.to!);
    w.u64(tx.amount!);
  }
  w.u64(tx.fee);
  w.u8(ringSizeOf(tx));
  w.u8(tx.inputs.length);
  w.u8(tx.outputs.length);
  w.bytes(tx.txPublicKey);
  for (const input of tx.inputs) writeRingInput(w, input);
  for (const output of tx.outputs) writeHiddenOutput(w, output);
  w.bytes(tx.rangeProof);
  return w.finish();
}

function decode(shape: Shape, bytes: Uint8Array): SignedRingSpend {
  const read = createTxReader(bytes);
  const kind = read.u8('kind');
  if (kind !== shape.tag) failDecode(`transaction kind: got ${kind}, expected ${shape.tag}`);
  const chainId = read.u32('chain_id');
  const to = shape.transparent ? read.bytes('to', addressBytes) : undefined;
  const amount = shape.transparent ? read.u64('amount') : undefined;
  const fee = read.u64('fee');
  const ringSize = read.u8('ring size');
  const inputCount = read.u8('input count');
  const outputCount = read.u8('output count');
  // Bounds before any allocation sized by them.
  checkCount('ring size', ringSize, 1, highRingSize, failDecode);
  checkCount('input count', inputCount, 1, confidentialInputsMax, failDecode);
  checkCount('output count', outputCount, shape.transparent ? 0 : 1, confidentialOutputsMax, failDecode);
  const txPublicKey = read.bytes('tx public key', pointBytes);
  const inputs = Array.from({ length: inputCount }, (_, i) => readRingInput(read, i, ringSize));
  const outputs = Array.from({ length: outputCount }, (_, i) => readHiddenOutput(read, i));
  const rangeProof = read.bytes('range proof', outputCount === 0 ? 0 : bulletproofPlusBytes(outputCount));
  const signatures = Array.from({ length: inputCount }, (_, i) => read.bytes(`input ${i} CLSAG`, clsagBytes(ringSize)));
  if (read.remaining() !== 0) failDecode(`transaction: ${read.remaining()} trailing bytes after the witness`);
  const tx: SignedRingSpend = { kind, chainId, ...(shape.transparent ? { to, amount } : {}), fee, txPublicKey, inputs, outputs, rangeProof, signatures };
  checkFields(shape, tx, failDecode);
  return tx;
}

function witnessChecks(tx: SignedRingSpend, message: Uint8Array): WitnessCheck[] {
  const checks: WitnessCheck[] = tx.inputs.map((input, i) => ({
    scheme: clsagScheme,
    fields: {
      message,
      ringKeys: input.ring.map((m) => m.oneTimeKey),
      ringCommitments: input.ring.map((m) => m.commitment),
      pseudoOut: input.pseudoOut,
      keyImage: input.keyImage,
      signature: tx.signatures[i]!,
    },
  }));
  if (tx.outputs.length > 0) checks.push({ scheme: bulletproofPlusScheme, fields: { commitments: tx.outputs.map((o) => o.commitment), proof: tx.rangeProof } });
  return checks;
}

/** Σ pseudo_out − Σ C − (fee + amount)·H is the identity (points were checked, and remembered, while decoding). */
export function ringSpendBalances(tx: RingSpendFields): boolean {
  let sum = Point.ZERO;
  for (const input of tx.inputs) sum = sum.add(cachedPublicPoint(input.pseudoOut, 'pseudo-output'));
  for (const output of tx.outputs) sum = sum.subtract(cachedSubgroupPoint(output.commitment, 'output commitment'));
  const publicAmount = tx.fee + (tx.amount ?? 0n);
  if (publicAmount > 0n) sum = sum.subtract(mulPublic(H, publicAmount));
  return sum.is0();
}

function checkContext(tx: SignedRingSpend, state: TxStateView): ConfidentialReason | undefined {
  return (
    checkRings(state, tx.inputs, tx.chainId) ??
    checkOutputsFree(state, tx.outputs.map((o) => o.oneTimeKey)) ??
    (ringSpendBalances(tx) ? undefined : 'balance_mismatch')
  );
}

/**
 * Signature operations in units of one Schnorr check, per CLSAG ring member: 3 before rules v3 (its curve operations
 * counted), 25 from rules v3 (its verification time: ~1.2 ms a member on Weft's own ed25519 code against ~45 µs for a
 * BIP340 check on the native libsecp256k1, bench/kind-costs.ts, docs/transactions.md "Cost per mass").
 */
const sigOpsPerRingMember = 3;
const sigOpsPerRingMemberV3 = 25;

/** Signature operations in units of one Schnorr check: per ring member (above), 16 per padded BP+ output. */
function sigOps(tx: RingSpendFields, rules: MassRules | undefined): number {
  const rings = tx.inputs.reduce((sum, input) => sum + input.ring.length, 0);
  const perMember = rules?.rulesV3 === true ? sigOpsPerRingMemberV3 : sigOpsPerRingMember;
  return perMember * rings + (tx.outputs.length === 0 ? 0 : 16 * (1 << logPaddedOutputs(tx.outputs.length)));
}

function view(shape: Shape, tx: SignedRingSpend, hrp: string): Record<string, unknown> {
  const fee = formatUnits(tx.fee);
  const transparent: Record<string, unknown> = {};
  if (shape.transparent) {
    const amount = formatUnits(tx.amount!);
    Object.assign(transparent, { to: encodeAddress(hrp, tx.to!), amount: Number(amount), amount_exact: amount });
  }
  return {
    ...transparent,
    fee: Number(fee),
    fee_exact: fee,
    ring_size: ringSizeOf(tx),
    tx_public_key: toHex(tx.txPublicKey),
    // What is public and nothing more: no sender, no hidden amount.
    inputs: tx.inputs.map((i) => ({ ring: i.ring.map((m) => toHex(m.oneTimeKey)), key_image: toHex(i.keyImage), pseudo_out: toHex(i.pseudoOut) })),
    outputs: tx.outputs.map((o) => ({ one_time_key: toHex(o.oneTimeKey), view_tag: o.viewTag, commitment: toHex(o.commitment), encrypted_amount: toHex(o.encryptedAmount) })),
  };
}

export function ringSpendKind<T extends SignedRingSpend>(shape: Shape, privacyLevel: 'high' | 'medium'): TxKindModule<T> {
  const module: TxKindModule<T> = {
    tag: shape.tag,
    name: shape.name,
    decode: (bytes) => decode(shape, bytes) as T,
    encode(tx) {
      const body = encodeBody(shape, tx);
      const n = ringSizeOf(tx);
      if (!Array.isArray(tx.signatures) || tx.signatures.length !== tx.inputs.length || tx.signatures.some((s) => !(s instanceof Uint8Array) || s.length !== clsagBytes(n))) {
        failEncode(`transaction signatures: expected ${tx.inputs.length} CLSAGs of ${clsagBytes(n)} bytes`);
      }
      return concatBytes(body, ...tx.signatures);
    },
    encodeBody: (tx) => encodeBody(shape, tx),
    bodyBytes: (tx) => bodyBytes(shape, tx),
    witnessChecks,
    spend: (tx) => ({ payer: concatBytes(Uint8Array.of(ringPayerType), tx.inputs[0]!.keyImage), nonce: 0n, amount: 0n, fee: tx.fee, useEnergy: false, feeFromCommitments: true }),
    conflictKeys: (tx) => [...tx.inputs.map((i) => `key_image:${toHex(i.keyImage)}`), ...tx.outputs.map((o) => `confidential_output:${toHex(o.oneTimeKey)}`)],
    mass: (tx, bytes, rules) => ({ bytes, sigOps: sigOps(tx, rules), gas: 0 }),
    checkContext: (state, tx) => checkContext(tx, state),
    apply(state, tx): Paid {
      markKeyImagesSpent(state, tx.inputs, blake3(module.encode(tx)));
      createHiddenOutputs(state, tx.outputs);
      if (shape.transparent) state.credit(tx.to!, tx.amount!);
      return { coinFee: tx.fee, energyFee: 0n };
    },
    parties: (tx) => (shape.transparent ? [{ address: tx.to!, role: 'recipient', amount: tx.amount! }] : []),
    view: (tx, hrp) => view(shape, tx, hrp),
    privacyLevel: () => privacyLevel,
  };
  return module;
}
