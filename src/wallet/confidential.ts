/**
 * Building confidential transactions on the owner's side (isomorphic: the node wallet and a browser tab run the
 * same code, and keys never leave the caller): stealth outputs to a (spend, view) public key pair, scanning an
 * output with the view key (view tag first), shielding transparent coins, and spending owned outputs with rings
 * into hidden outputs (confidential_transfer) or a transparent address (unshield). Consensus rules live in
 * src/kinds/confidential/; this module only fills and signs.
 */
import { publicKeyFromPrivate, schnorrSign, signatureBytes } from '../crypto/keys.ts';
import { standardAddress } from '../crypto/address.ts';
import { commitmentMask, decryptAmount, encryptAmount } from '../crypto/monero/amount-encryption.ts';
import { commit, zeroCommit } from '../crypto/monero/commitment.ts';
import { signClsag } from '../crypto/monero/clsag.ts';
import { generateKeyImage } from '../crypto/monero/key-image.ts';
import type { MoneroKeys } from '../crypto/monero/keys.ts';
import { decodePublicPoint, encodePoint, mulBase, type Point } from '../crypto/monero/point.ts';
import { encodeBulletproofPlus, encodeClsag } from '../crypto/monero/proof-codec.ts';
import { proveBulletproofPlus } from '../crypto/monero/bulletproofs-plus/prove.ts';
import { derivationToScalar, derivePublicKey, deriveSecretKey, deriveViewTag, generateKeyDerivation } from '../crypto/monero/stealth.ts';
import { mod, randomScalar, type RandomBytes } from '../crypto/monero/scalar.ts';
import { TxKind } from '../codec/transaction-kinds.ts';
import type { HiddenOutput, RingMember } from '../kinds/confidential/codec.ts';
import { confidentialTransferKind, type ConfidentialTransferTransaction } from '../kinds/confidential/confidential-transfer.ts';
import type { RingSpendFields } from '../kinds/confidential/ring-spend.ts';
import { shieldKind, type ShieldTransaction } from '../kinds/confidential/shield.ts';
import { unshieldKind, type UnshieldTransaction } from '../kinds/confidential/unshield.ts';
import { signingHashOfBody } from '../kinds/signing.ts';
import { InvalidTransactionError } from '../kinds/errors.ts';
import { compareBytes, equalBytes } from '../util/bytes.ts';

/** Where coins go: a recipient's public spend and view keys (a Monero standard address's two keys). */
export interface StealthRecipient {
  readonly spendPublic: Point;
  readonly viewPublic: Point;
}

/** An output its owner can spend: the one-time secret x (P = x·G), the commitment's mask and the amount. */
export interface OwnedOutput {
  readonly oneTimeKey: Uint8Array;
  readonly commitment: Uint8Array;
  readonly secretKey: bigint;
  readonly mask: bigint;
  readonly amount: bigint;
}

interface PaidOutput extends HiddenOutput {
  readonly mask: bigint;
  readonly amount: bigint;
}

/** Output `index` of a transaction with secret r, to `to`: Monero's derivation, view tag and ecdhInfo v2 amount. */
function stealthOutput(to: StealthRecipient, txSecret: bigint, index: number, amount: bigint): PaidOutput {
  const derivation = generateKeyDerivation(to.viewPublic, txSecret);
  const shared = derivationToScalar(derivation, index);
  const mask = commitmentMask(shared);
  return {
    oneTimeKey: encodePoint(derivePublicKey(derivation, index, to.spendPublic)),
    viewTag: deriveViewTag(derivation, index),
    commitment: encodePoint(commit(mask, amount)),
    encryptedAmount: encryptAmount(amount, shared),
    mask,
    amount,
  };
}

/**
 * The receiver's scan of one output: undefined unless it pays `keys` (the view tag rules out ~255/256 of foreign
 * outputs before the one-time key is derived). `publicAmount` is given for shield outputs (mask 1).
 */
export function scanOutput(
  keys: MoneroKeys,
  txPublicKey: Uint8Array,
  index: number,
  output: { oneTimeKey: Uint8Array; viewTag: number; commitment?: Uint8Array; encryptedAmount?: Uint8Array; publicAmount?: bigint },
): OwnedOutput | undefined {
  const derivation = generateKeyDerivation(decodePublicPoint(txPublicKey, 'tx public key'), keys.viewSecret);
  if (deriveViewTag(derivation, index) !== output.viewTag) return undefined;
  if (!equalBytes(encodePoint(derivePublicKey(derivation, index, keys.spendPublic)), output.oneTimeKey)) return undefined;
  const secretKey = deriveSecretKey(derivation, index, keys.spendSecret);
  if (output.publicAmount !== undefined) {
    return { oneTimeKey: output.oneTimeKey, commitment: encodePoint(zeroCommit(output.publicAmount)), secretKey, mask: 1n, amount: output.publicAmount };
  }
  const shared = derivationToScalar(derivation, index);
  const amount = decryptAmount(output.encryptedAmount!, shared);
  const mask = commitmentMask(shared);
  // An amount that does not open the commitment is not spendable as told: treat the output as foreign.
  if (!equalBytes(encodePoint(commit(mask, amount)), output.commitment!)) return undefined;
  return { oneTimeKey: output.oneTimeKey, commitment: output.commitment!, secretKey, mask, amount };
}

export interface ShieldRequest {
  readonly chainId: number;
  /** The secp256k1 key of the paying standard address. */
  readonly privateKey: Uint8Array;
  readonly fee: bigint;
  readonly nonce: bigint;
  readonly useEnergy?: boolean;
  readonly outputs: readonly { readonly to: StealthRecipient; readonly amount: bigint }[];
  readonly random: RandomBytes;
}

export function buildShield(request: ShieldRequest): ShieldTransaction {
  const r = randomScalar(request.random);
  const outputs = request.outputs.map((o, i) => {
    const paid = stealthOutput(o.to, r, i, o.amount);
    return { oneTimeKey: paid.oneTimeKey, viewTag: paid.viewTag, amount: o.amount };
  });
  const unsigned = {
    kind: TxKind.Shield,
    chainId: request.chainId,
    from: standardAddress(publicKeyFromPrivate(request.privateKey)),
    fee: request.fee,
    nonce: request.nonce,
    useEnergy: request.useEnergy ?? false,
    txPublicKey: encodePoint(mulBase(r)),
    outputs,
  } as const;
  const message = signingHashOfBody(shieldKind.encodeBody({ ...unsigned, signature: new Uint8Array(signatureBytes) }));
  return { ...unsigned, signature: schnorrSign(message, request.privateKey, request.random(32)) };
}

export interface RingSpendRequest {
  readonly chainId: number;
  readonly fee: bigint;
  /** Each owned output with the decoys that hide it (ring size − 1 mature outputs, as stored). */
  readonly inputs: readonly { readonly owned: OwnedOutput; readonly decoys: readonly RingMember[] }[];
  readonly outputs: readonly { readonly to: StealthRecipient; readonly amount: bigint }[];
  /** Unshield: the transparent recipient and amount. */
  readonly unshield?: { readonly to: Uint8Array; readonly amount: bigint };
  readonly random: RandomBytes;
}

/** A ring spend: pseudo-output masks sum to the output masks, so Σ pseudo_out = Σ C + (fee + amount)·H. */
export function buildRingSpend(request: RingSpendRequest): ConfidentialTransferTransaction | UnshieldTransaction {
  const { random } = request;
  const r = randomScalar(random);
  const paid = request.outputs.map((o, i) => stealthOutput(o.to, r, i, o.amount));
  const outputMasks = paid.reduce((sum, o) => sum + o.mask, 0n);
  const pseudoMasks = request.inputs.map(() => randomScalar(random));
  pseudoMasks[pseudoMasks.length - 1] = mod(outputMasks - pseudoMasks.slice(0, -1).reduce((a, b) => a + b, 0n));
  const inputs = request.inputs.map(({ owned, decoys }, i) => {
    const ring = [...decoys, { oneTimeKey: owned.oneTimeKey, commitment: owned.commitment }].sort((a, b) => compareBytes(a.oneTimeKey, b.oneTimeKey));
    return {
      ring,
      keyImage: encodePoint(generateKeyImage(owned.oneTimeKey, owned.secretKey)),
      pseudoOut: encodePoint(commit(pseudoMasks[i]!, owned.amount)),
      secretIndex: ring.findIndex((m) => equalBytes(m.oneTimeKey, owned.oneTimeKey)),
    };
  });
  const rangeProof = paid.length === 0 ? new Uint8Array(0) : encodeBulletproofPlus(proveBulletproofPlus(paid, random));
  const fields: RingSpendFields = {
    kind: request.unshield === undefined ? TxKind.ConfidentialTransfer : TxKind.Unshield,
    chainId: request.chainId,
    ...(request.unshield === undefined ? {} : { to: request.unshield.to, amount: request.unshield.amount }),
    fee: request.fee,
    txPublicKey: encodePoint(mulBase(r)),
    inputs: inputs.map(({ ring, keyImage, pseudoOut }) => ({ ring, keyImage, pseudoOut })),
    outputs: paid.map(({ oneTimeKey, viewTag, commitment, encryptedAmount }) => ({ oneTimeKey, viewTag, commitment, encryptedAmount })),
    rangeProof,
  };
  const kind = request.unshield === undefined ? confidentialTransferKind : unshieldKind;
  const message = signingHashOfBody(kind.encodeBody(fields as never));
  const signatures = inputs.map((input, i) => {
    const owned = request.inputs[i]!.owned;
    const { signature, keyImage } = signClsag(
      { message, ring: input.ring.map((m) => ({ publicKey: m.oneTimeKey, commitment: m.commitment })), pseudoOut: input.pseudoOut, secretIndex: input.secretIndex, secretKey: owned.secretKey, commitmentMaskDifference: mod(owned.mask - pseudoMasks[i]!) },
      random,
    );
    if (!equalBytes(keyImage, input.keyImage)) throw new InvalidTransactionError('key image changed while signing');
    return encodeClsag(signature);
  });
  return { ...fields, signatures } as ConfidentialTransferTransaction | UnshieldTransaction;
}
