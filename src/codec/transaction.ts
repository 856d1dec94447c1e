/**
 * The canonical binary transaction codec (docs/transactions.md has the layout table).
 *
 * Every integer is little-endian and fixed-width; byte strings are fixed-length or u16-length-prefixed. Encoding is
 * canonical: exactly one byte string per transaction, and decoding refuses anything else (trailing bytes, unsorted
 * multisig keys, a use_energy byte other than 0/1, an address whose type does not fit the kind, unknown kinds).
 *
 *   body    = kind u8 | chain_id u32 | from [33] | to [33] | amount u64 | fee u64 | nonce u64 | use_energy u8
 *             | memo_len u16 | memo [memo_len ≤ 256]
 *   witness = kind 0 (transfer):          signature [64]                                 (BIP340, by `from`'s key)
 *             kind 1 (multisig transfer): m u8 | n u8 | pubkey [32] × n (strictly ascending)
 *                                         | (index u8 | signature [64]) × m (indices strictly ascending, < n)
 *
 * Hashes (BLAKE3):  signing hash = BLAKE3("weft/tx/v1" || body)   — covers chain_id, so a signature made for one
 *                                                                    network never replays on another;
 *                   tx hash      = BLAKE3(body || witness)          — the id the APIs show.
 */
import { DecodeError, ErrorCode, WeftError } from '../errors.ts';
import {
  AddressType,
  addressBytes,
  checkAddressBytes,
  InvalidAddressError,
  multisigKeysMax,
  multisigScriptHash,
  standardAddress,
} from '../crypto/address.ts';
import { blake3 } from '../crypto/blake3.ts';
import { publicKeyBytes, publicKeyFromPrivate, schnorrSign, signatureBytes } from '../crypto/keys.ts';
import type { SchnorrCheck, SignatureVerifier } from '../crypto/verifier.ts';
import { txBytesMax } from '../limits.ts';
import { compareBytes, concatBytes, equalBytes } from '../util/bytes.ts';
import { implementedTxKinds, txKindName, TxKind } from './transaction-kinds.ts';

/** A memo is a short note (an invoice id, a reference); bigger payloads belong to contracts. */
export const memoBytesMax = 256;
const u32Max = 0xffff_ffff;
const u64Max = (1n << 64n) - 1n;
/** kind + chain_id + from + to + amount + fee + nonce + use_energy + memo_len. */
const bodyFixedBytes = 1 + 4 + addressBytes + addressBytes + 8 + 8 + 8 + 1 + 2;

export interface TransferFields {
  /** DESIGN.md §2: 1 mainnet, 2 testnet, 1337 devnet. */
  readonly chainId: number;
  /** 33-byte binary addresses (src/crypto/address.ts). */
  readonly from: Uint8Array;
  readonly to: Uint8Array;
  /** Base units (10^8 per coin), u64. */
  readonly amount: bigint;
  readonly fee: bigint;
  /** The sender's account nonce this transaction uses, u64. */
  readonly nonce: bigint;
  /** Pay the fee from the sender's energy instead of its balance (DESIGN.md §4). */
  readonly useEnergy: boolean;
  readonly memo: Uint8Array;
}

export interface UnsignedTransfer extends TransferFields {
  readonly kind: typeof TxKind.Transfer;
}
export interface UnsignedMultisigTransfer extends TransferFields {
  readonly kind: typeof TxKind.MultisigTransfer;
}
export type UnsignedTransaction = UnsignedTransfer | UnsignedMultisigTransfer;

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

export interface TransferTransaction extends UnsignedTransfer {
  readonly signature: Uint8Array;
}
export interface MultisigTransferTransaction extends UnsignedMultisigTransfer {
  readonly script: MultisigScript;
  /** Exactly m, indices strictly ascending. */
  readonly signatures: readonly MultisigSignature[];
}
export type Transaction = TransferTransaction | MultisigTransferTransaction;

/** A transaction value that cannot be encoded (a field out of range). Code -32602 (InvalidParams). */
export class InvalidTransactionError extends WeftError {
  constructor(message: string) {
    super(ErrorCode.InvalidParams, message);
  }
}

type Fail = (message: string) => never;
const failEncode: Fail = (message) => {
  throw new InvalidTransactionError(message);
};
const failDecode: Fail = (message) => {
  throw new DecodeError(message);
};

function expectedFromType(kind: number): AddressType {
  return kind === TxKind.Transfer ? AddressType.Standard : AddressType.Multisig;
}

function checkAddress(what: string, address: Uint8Array, fail: Fail): void {
  try {
    checkAddressBytes(address);
  } catch (error) {
    if (error instanceof InvalidAddressError) fail(`transaction ${what}: ${error.message}`);
    throw error;
  }
}

function checkFields(tx: TransferFields & { readonly kind: number }, fail: Fail): void {
  if (!implementedTxKinds.has(tx.kind)) fail(kindProblem(tx.kind));
  if (!Number.isInteger(tx.chainId) || tx.chainId < 0 || tx.chainId > u32Max) {
    fail(`transaction chain_id: got ${tx.chainId}, expected a u32`);
  }
  checkAddress('from', tx.from, fail);
  checkAddress('to', tx.to, fail);
  if (tx.from[0] !== expectedFromType(tx.kind)) {
    fail(`transaction from: got address type ${tx.from[0]}, expected ${expectedFromType(tx.kind)} for kind ${tx.kind}`);
  }
  for (const [name, value] of [['amount', tx.amount], ['fee', tx.fee], ['nonce', tx.nonce]] as const) {
    if (typeof value !== 'bigint' || value < 0n || value > u64Max) fail(`transaction ${name}: got ${value}, expected a u64`);
  }
  if (typeof tx.useEnergy !== 'boolean') fail('transaction use_energy: expected a boolean');
  if (!(tx.memo instanceof Uint8Array) || tx.memo.length > memoBytesMax) {
    fail(`transaction memo: got ${tx.memo?.length} bytes, expected at most ${memoBytesMax}`);
  }
}

function kindProblem(kind: number): string {
  const name = txKindName(kind);
  return name === undefined
    ? `transaction kind: got unknown tag ${kind}, expected 0 (transfer) or 1 (multisig_transfer)`
    : `transaction kind: got ${kind} (${name}), reserved but not valid in this protocol version`;
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

function witnessBytes(tx: Transaction): number {
  if (tx.kind === TxKind.Transfer) return signatureBytes;
  return 2 + publicKeyBytes * tx.script.publicKeys.length + (1 + signatureBytes) * tx.signatures.length;
}

function writeBody(view: DataView, out: Uint8Array, tx: TransferFields & { readonly kind: number }): number {
  let at = 0;
  view.setUint8(at, tx.kind);
  view.setUint32(at + 1, tx.chainId, true);
  at += 5;
  out.set(tx.from, at);
  out.set(tx.to, at + addressBytes);
  at += 2 * addressBytes;
  view.setBigUint64(at, tx.amount, true);
  view.setBigUint64(at + 8, tx.fee, true);
  view.setBigUint64(at + 16, tx.nonce, true);
  view.setUint8(at + 24, tx.useEnergy ? 1 : 0);
  view.setUint16(at + 25, tx.memo.length, true);
  at += 27;
  out.set(tx.memo, at);
  return at + tx.memo.length;
}

/** The body (everything but the witness) of a signed or unsigned transaction: what the signing hash covers. */
export function encodeTransactionBody(tx: UnsignedTransaction): Uint8Array {
  checkFields(tx, failEncode);
  const out = new Uint8Array(bodyFixedBytes + tx.memo.length);
  writeBody(new DataView(out.buffer), out, tx);
  return out;
}

/** The canonical bytes of a signed transaction. Throws InvalidTransactionError for out-of-range fields. */
export function encodeTransaction(tx: Transaction): Uint8Array {
  checkFields(tx, failEncode);
  if (tx.kind === TxKind.Transfer) {
    if (!(tx.signature instanceof Uint8Array) || tx.signature.length !== signatureBytes) {
      failEncode(`transaction signature: expected ${signatureBytes} bytes`);
    }
  } else {
    checkMultisigWitness(tx.script, tx.signatures, failEncode);
  }
  const out = new Uint8Array(bodyFixedBytes + tx.memo.length + witnessBytes(tx));
  const view = new DataView(out.buffer);
  let at = writeBody(view, out, tx);
  if (tx.kind === TxKind.Transfer) {
    out.set(tx.signature, at);
    return out;
  }
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
}

/** A bounds-checked cursor over untrusted bytes: every read past the end is a DecodeError. */
function createReader(bytes: Uint8Array) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 0;
  const need = (what: string, n: number): number => {
    if (at + n > bytes.length) failDecode(`transaction ${what}: needs ${n} bytes at offset ${at}, have ${bytes.length - at}`);
    const start = at;
    at += n;
    return start;
  };
  return {
    u8: (what: string) => view.getUint8(need(what, 1)),
    u16: (what: string) => view.getUint16(need(what, 2), true),
    u32: (what: string) => view.getUint32(need(what, 4), true),
    u64: (what: string) => view.getBigUint64(need(what, 8), true),
    bytes: (what: string, n: number) => bytes.slice(need(what, n), at),
    remaining: () => bytes.length - at,
  };
}

function readMultisigWitness(read: ReturnType<typeof createReader>): Pick<MultisigTransferTransaction, 'script' | 'signatures'> {
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

/** Parses canonical transaction bytes. Throws DecodeError (-32602) for anything that is not exactly one. */
export function decodeTransaction(bytes: Uint8Array): Transaction {
  if (!(bytes instanceof Uint8Array)) failDecode('transaction: expected bytes');
  if (bytes.length > txBytesMax) failDecode(`transaction: got ${bytes.length} bytes, expected at most ${txBytesMax}`);
  const read = createReader(bytes);
  const kind = read.u8('kind');
  if (kind !== TxKind.Transfer && kind !== TxKind.MultisigTransfer) failDecode(kindProblem(kind));
  const chainId = read.u32('chain_id');
  const from = read.bytes('from', addressBytes);
  const to = read.bytes('to', addressBytes);
  const amount = read.u64('amount');
  const fee = read.u64('fee');
  const nonce = read.u64('nonce');
  const energyByte = read.u8('use_energy');
  if (energyByte > 1) failDecode(`transaction use_energy: got ${energyByte}, expected 0 or 1`);
  const memoLength = read.u16('memo length');
  if (memoLength > memoBytesMax) failDecode(`transaction memo: got ${memoLength} bytes, expected at most ${memoBytesMax}`);
  const memo = read.bytes('memo', memoLength);
  const fields = { chainId, from, to, amount, fee, nonce, useEnergy: energyByte === 1, memo };
  checkFields({ kind, ...fields }, failDecode);
  const tx: Transaction =
    kind === TxKind.Transfer
      ? { kind, ...fields, signature: read.bytes('signature', signatureBytes) }
      : { kind, ...fields, ...readMultisigWitness(read) };
  if (read.remaining() !== 0) failDecode(`transaction: ${read.remaining()} trailing bytes after the witness`);
  return tx;
}

const signingTag = new TextEncoder().encode('weft/tx/v1');

/** BLAKE3("weft/tx/v1" || body): what every signature of the transaction signs. Witness-free, so never malleable. */
export function signingHash(tx: UnsignedTransaction): Uint8Array {
  return blake3(concatBytes(signingTag, encodeTransactionBody(tx)));
}

/**
 * BLAKE3 of the full encoding: the transaction id the APIs show. BIP340 signatures are not malleable by third
 * parties (s < n and an even-y R are enforced, unlike ECDSA's s/−s), so nobody but the signers can make a second
 * valid encoding of a standard transfer. See docs/transactions.md for the multisig caveat.
 */
export function txHash(tx: Transaction): Uint8Array {
  return blake3(encodeTransaction(tx));
}

/** Signs a standard transfer with the key that owns `from`. `auxRand`: 32 fresh random bytes (BIP340 aux). */
export function signTransfer(tx: UnsignedTransfer, privateKey: Uint8Array, auxRand: Uint8Array): TransferTransaction {
  const owner = standardAddress(publicKeyFromPrivate(privateKey));
  if (!equalBytes(owner, tx.from)) failEncode('signTransfer: the private key does not own the from address');
  const signature = schnorrSign(signingHash(tx), privateKey, auxRand);
  return { ...tx, signature };
}

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
  return { index, signature: schnorrSign(signingHash(tx), privateKey, auxRand) };
}

/** Puts m shares (any order) into a multisig transfer; encodeTransaction then checks the shape. */
export function assembleMultisigTransfer(
  tx: UnsignedMultisigTransfer,
  script: MultisigScript,
  shares: readonly MultisigSignature[],
): MultisigTransferTransaction {
  const signatures = [...shares].sort((a, b) => a.index - b.index);
  const assembled: MultisigTransferTransaction = { ...tx, script, signatures };
  encodeTransaction(assembled);
  return assembled;
}

/**
 * The Schnorr checks a transaction needs, for batching across a block; undefined when it cannot be valid whatever
 * the signatures (a multisig script that does not hash to `from`).
 */
export function transactionSignatureChecks(tx: Transaction): SchnorrCheck[] | undefined {
  const message = signingHash(tx);
  if (tx.kind === TxKind.Transfer) return [{ signature: tx.signature, message, publicKey: tx.from.subarray(1) }];
  const scriptHash = multisigScriptHash(tx.script.m, tx.script.publicKeys);
  if (!equalBytes(scriptHash, tx.from.subarray(1))) return undefined;
  return tx.signatures.map(({ index, signature }) => ({ signature, message, publicKey: tx.script.publicKeys[index]! }));
}

/** True iff every signature the transaction needs is present and valid for its `from` address. */
export function verifyTransactionSignatures(tx: Transaction, verifier: SignatureVerifier): boolean {
  const checks = transactionSignatureChecks(tx);
  if (checks === undefined) return false;
  return verifier.verifySchnorrBatch(checks).every((ok) => ok);
}
