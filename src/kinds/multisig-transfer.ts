/**
 * Kind 0x01, multisig transfer: a value transfer from an m-of-n multisig address, authorised by m BIP340 signatures
 * of keys of the script the address commits to (the script travels in the witness).
 *
 *   multisig transfer = body (value-transfer.ts) | m u8 | n u8 | pubkey [32] × n (strictly ascending)
 *                       | (index u8 | signature [64]) × m (indices strictly ascending, < n)
 */
import { AddressType, multisigKeysMax, multisigScriptHash } from '../crypto/address.ts';
import { publicKeyBytes, publicKeyFromPrivate, schnorrSign, signatureBytes } from '../crypto/keys.ts';
import { TxKind } from '../codec/transaction-kinds.ts';
import { compareBytes, equalBytes } from '../util/bytes.ts';
import type { TxKindModule } from './kind.ts';
import { signingHashOfBody } from './signing.ts';
import {
  applyTransfer,
  checkTransferContext,
  checkTransferFields,
  createTxReader,
  encodeTransferBody,
  failDecode,
  failEncode,
  readTransferBody,
  transferBodyBytes,
  transferConflictKeys,
  transferParties,
  transferSpend,
  transferView,
  writeTransferBody,
  type Fail,
  type TransferFields,
  type TxReader,
} from './value-transfer.ts';

/** An m-of-n script; `publicKeys` strictly ascending (canonicalMultisigKeys sorts them). */
export interface MultisigScript {
  readonly m: number;
  readonly publicKeys: readonly Uint8Array[];
}
export interface MultisigSignature {
  /** Position of the signer's key in `script.publicKeys`. */
  readonly index: number;
  readonly signature: Uint8Array;
}

export interface UnsignedMultisigTransfer extends TransferFields {
  readonly kind: typeof TxKind.MultisigTransfer;
}
export interface MultisigTransferTransaction extends UnsignedMultisigTransfer {
  readonly script: MultisigScript;
  /** Exactly m, indices strictly ascending. */
  readonly signatures: readonly MultisigSignature[];
}

function checkMultisigWitness(script: MultisigScript, signatures: readonly MultisigSignature[], fail: Fail): void {
  const n = script.publicKeys.length;
  if (!Number.isInteger(script.m) || script.m < 1 || script.m > n || n > multisigKeysMax) {
    fail(`multisig script: got m=${script.m}, n=${n}, expected 1 ≤ m ≤ n ≤ ${multisigKeysMax}`);
  }
  script.publicKeys.forEach((key, i) => {
    if (!(key instanceof Uint8Array) || key.length !== publicKeyBytes) fail(`multisig key ${i}: expected 32 bytes`);
    if (i > 0 && compareBytes(script.publicKeys[i - 1]!, key) >= 0) fail('multisig keys: expected strictly ascending');
  });
  if (signatures.length !== script.m) fail(`multisig signatures: got ${signatures.length}, expected m=${script.m}`);
  signatures.forEach(({ index, signature }, i) => {
    if (!Number.isInteger(index) || index < 0 || index >= n) fail(`multisig signature ${i}: index ${index} not < n=${n}`);
    if (i > 0 && signatures[i - 1]!.index >= index) fail('multisig signature indices: expected strictly ascending');
    if (!(signature instanceof Uint8Array) || signature.length !== signatureBytes) {
      fail(`multisig signature ${i}: expected ${signatureBytes} bytes`);
    }
  });
}

function readMultisigWitness(read: TxReader): Pick<MultisigTransferTransaction, 'script' | 'signatures'> {
  const m = read.u8('multisig m');
  const n = read.u8('multisig n');
  // Bound n before reading n keys, so a hostile n never drives the loop past multisigKeysMax.
  if (n > multisigKeysMax || m < 1 || m > n) failDecode(`multisig script: got m=${m}, n=${n}, expected 1 ≤ m ≤ n ≤ ${multisigKeysMax}`);
  const publicKeys: Uint8Array[] = [];
  for (let i = 0; i < n; i++) publicKeys.push(read.bytes(`multisig key ${i}`, publicKeyBytes));
  const signatures: MultisigSignature[] = [];
  for (let i = 0; i < m; i++) {
    const index = read.u8(`multisig signature ${i} index`);
    signatures.push({ index, signature: read.bytes(`multisig signature ${i}`, signatureBytes) });
  }
  const script = { m, publicKeys };
  checkMultisigWitness(script, signatures, failDecode);
  return { script, signatures };
}

const witnessBytes = (tx: MultisigTransferTransaction): number =>
  2 + publicKeyBytes * tx.script.publicKeys.length + (1 + signatureBytes) * tx.signatures.length;

export const multisigTransferKind: TxKindModule<MultisigTransferTransaction> = {
  tag: TxKind.MultisigTransfer,
  name: 'multisig_transfer',

  decode(bytes) {
    const read = createTxReader(bytes);
    const body = readTransferBody(read, AddressType.Multisig);
    const tx: MultisigTransferTransaction = { ...body, kind: TxKind.MultisigTransfer, ...readMultisigWitness(read) };
    if (read.remaining() !== 0) failDecode(`transaction: ${read.remaining()} trailing bytes after the witness`);
    return tx;
  },
  encode(tx) {
    checkTransferFields(tx, AddressType.Multisig, failEncode);
    checkMultisigWitness(tx.script, tx.signatures, failEncode);
    const out = new Uint8Array(transferBodyBytes(tx) + witnessBytes(tx));
    const view = new DataView(out.buffer);
    let at = writeTransferBody(view, out, tx);
    view.setUint8(at, tx.script.m);
    view.setUint8(at + 1, tx.script.publicKeys.length);
    at += 2;
    for (const key of tx.script.publicKeys) {
      out.set(key, at);
      at += publicKeyBytes;
    }
    for (const { index, signature } of tx.signatures) {
      view.setUint8(at, index);
      out.set(signature, at + 1);
      at += 1 + signatureBytes;
    }
    return out;
  },
  encodeBody: (tx) => encodeTransferBody(tx, AddressType.Multisig),
  bodyBytes: transferBodyBytes,

  /** undefined when the script does not hash to `from`: no signatures could make it valid. */
  witnessChecks(tx, message) {
    if (!equalBytes(multisigScriptHash(tx.script.m, tx.script.publicKeys), tx.from.subarray(1))) return undefined;
    return tx.signatures.map(({ index, signature }) => ({ scheme: 'bip340' as const, signature, message, publicKey: tx.script.publicKeys[index]! }));
  },
  spend: transferSpend,
  conflictKeys: transferConflictKeys,
  mass: (tx, bytes) => ({ bytes, sigOps: tx.signatures.length, gas: 0 }),

  checkContext: checkTransferContext,
  apply: applyTransfer,
  parties: transferParties,
  view: transferView,
};

const signingHashOf = (tx: UnsignedMultisigTransfer): Uint8Array =>
  signingHashOfBody(multisigTransferKind.encodeBody(tx as MultisigTransferTransaction));

/** One signer's share of a multisig transfer: its key's index in the script and its signature. */
export function signMultisigShare(
  tx: UnsignedMultisigTransfer,
  script: MultisigScript,
  privateKey: Uint8Array,
  auxRand: Uint8Array,
): MultisigSignature {
  const publicKey = publicKeyFromPrivate(privateKey);
  const index = script.publicKeys.findIndex((key) => equalBytes(key, publicKey));
  if (index < 0) failEncode('signMultisigShare: the private key is not one of the script keys');
  return { index, signature: schnorrSign(signingHashOf(tx), privateKey, auxRand) };
}

/** Puts m shares (any order) into a multisig transfer; encoding then checks the shape. */
export function assembleMultisigTransfer(
  tx: UnsignedMultisigTransfer,
  script: MultisigScript,
  shares: readonly MultisigSignature[],
): MultisigTransferTransaction {
  const signatures = [...shares].sort((a, b) => a.index - b.index);
  const assembled: MultisigTransferTransaction = { ...tx, script, signatures };
  multisigTransferKind.encode(assembled);
  return assembled;
}
