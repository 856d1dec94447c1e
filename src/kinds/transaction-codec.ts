/**
 * The transaction codec (docs/transactions.md has the layout tables): a transaction is its kind tag (first byte)
 * followed by what that kind's module (src/kinds/) says. Decoding looks the tag up in the kind registry; an unknown
 * or reserved tag is refused. Encoding is canonical for every kind: exactly one byte string per transaction.
 *
 * Hashes (BLAKE3, the same for every kind): signing hash = BLAKE3("weft/tx/v1" || body); tx hash = BLAKE3(bytes).
 * BIP340 signatures are not malleable by third parties (s < n and an even-y R are enforced), so nobody but the
 * signers can make a second valid encoding of a transfer. See docs/transactions.md for the multisig caveat.
 *
 * The value-transfer kinds' types and signing helpers are re-exported here: they are what wallets build.
 */
import { DecodeError } from '../errors.ts';
import { blake3 } from '../crypto/blake3.ts';
import { asWitnessVerifier, type WitnessCheck } from '../crypto/witness-check.ts';
import type { SignatureVerifier } from '../crypto/verifier.ts';
import { txBytesMax } from '../limits.ts';
import { InvalidTransactionError, UnknownTxKindError } from './errors.ts';
import type { AnyTransaction } from './kind.ts';
import type { MultisigTransferTransaction } from './multisig-transfer.ts';
import { kindOf, txKindModule } from './registry.ts';
import { signingHashOfBody } from './signing.ts';
import type { TransferTransaction } from './transfer.ts';

export { InvalidTransactionError } from './errors.ts';
export type { AnyTransaction } from './kind.ts';
export { memoBytesMax, type TransferFields } from './value-transfer.ts';
export { signTransfer, type TransferTransaction, type UnsignedTransfer } from './transfer.ts';
export {
  assembleMultisigTransfer,
  signMultisigShare,
  type MultisigScript,
  
  type MultisigTransferTransaction,
  type UnsignedMultisigTransfer,
} from './multisig-transfer.ts';

/** The built-in value-transfer kinds: what wallets build and sign. */
export type Transaction = TransferTransaction | MultisigTransferTransaction;

/** The module of an encodable transaction; an unregistered kind is an encoding error (the value is wrong). */
function moduleForEncoding(tx: AnyTransaction) {
  try {
    return kindOf(tx);
  } catch (error) {
    if (error instanceof UnknownTxKindError) throw new InvalidTransactionError(error.message);
    throw error;
  }
}

/** The body (everything but the witness) of a signed or unsigned transaction: what the signing hash covers. */
export function encodeTransactionBody(tx: AnyTransaction): Uint8Array {
  return moduleForEncoding(tx).encodeBody(tx);
}

/** The canonical bytes of a signed transaction. Throws InvalidTransactionError for out-of-range fields. */
export function encodeTransaction(tx: AnyTransaction): Uint8Array {
  return moduleForEncoding(tx).encode(tx);
}

/** Parses canonical transaction bytes. Throws DecodeError (-32602) for anything that is not exactly one. */
export function decodeTransaction(bytes: Uint8Array): AnyTransaction {
  if (!(bytes instanceof Uint8Array)) throw new DecodeError('transaction: expected bytes');
  if (bytes.length > txBytesMax) throw new DecodeError(`transaction: got ${bytes.length} bytes, expected at most ${txBytesMax}`);
  if (bytes.length === 0) throw new DecodeError('transaction kind: needs 1 bytes at offset 0, have 0');
  return txKindModule(bytes[0]!).decode(bytes);
}

/** BLAKE3("weft/tx/v1" || body): what every signature of the transaction signs. Witness-free, so never malleable. */
export function signingHash(tx: AnyTransaction): Uint8Array {
  return signingHashOfBody(encodeTransactionBody(tx));
}

/** BLAKE3 of the full encoding: the transaction id the APIs show. */
export function txHash(tx: AnyTransaction): Uint8Array {
  return blake3(encodeTransaction(tx));
}

/** The proofs a transaction needs, for batching across a block; undefined when it cannot be valid whatever they say. */
function transactionWitnessChecks(tx: AnyTransaction): WitnessCheck[] | undefined {
  return kindOf(tx).witnessChecks(tx, signingHash(tx));
}

/** True iff every proof the transaction needs is present and valid. */
export function verifyTransactionSignatures(tx: AnyTransaction, verifier: SignatureVerifier): boolean {
  const checks = transactionWitnessChecks(tx);
  if (checks === undefined) return false;
  const results = asWitnessVerifier(verifier).verifyWitnesses(checks);
  return (results as boolean[]).every((ok) => ok);
}
