/**
 * Kind 0x00, transfer: a value transfer from a standard address, authorised by one BIP340 signature of the key the
 * address commits to.
 *
 *   transfer = body (value-transfer.ts) | signature [64]
 */
import { AddressType, standardAddress } from '../crypto/address.ts';
import { publicKeyFromPrivate, schnorrSign, signatureBytes } from '../crypto/keys.ts';
import { TxKind } from '../codec/transaction-kinds.ts';
import { equalBytes } from '../util/bytes.ts';
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
  type TransferFields,
} from './value-transfer.ts';

export interface UnsignedTransfer extends TransferFields {
  readonly kind: typeof TxKind.Transfer;
}
export interface TransferTransaction extends UnsignedTransfer {
  readonly signature: Uint8Array;
}

export const transferKind: TxKindModule<TransferTransaction> = {
  tag: TxKind.Transfer,
  name: 'transfer',

  decode(bytes) {
    const read = createTxReader(bytes);
    const body = readTransferBody(read, AddressType.Standard);
    const tx: TransferTransaction = { ...body, kind: TxKind.Transfer, signature: read.bytes('signature', signatureBytes) };
    if (read.remaining() !== 0) failDecode(`transaction: ${read.remaining()} trailing bytes after the witness`);
    return tx;
  },
  encode(tx) {
    checkTransferFields(tx, AddressType.Standard, failEncode);
    if (!(tx.signature instanceof Uint8Array) || tx.signature.length !== signatureBytes) {
      failEncode(`transaction signature: expected ${signatureBytes} bytes`);
    }
    const out = new Uint8Array(transferBodyBytes(tx) + signatureBytes);
    out.set(tx.signature, writeTransferBody(new DataView(out.buffer), out, tx));
    return out;
  },
  encodeBody: (tx) => encodeTransferBody(tx, AddressType.Standard),
  bodyBytes: transferBodyBytes,

  witnessChecks: (tx, message) => [{ scheme: 'bip340', signature: tx.signature, message, publicKey: tx.from.subarray(1) }],
  spend: transferSpend,
  conflictKeys: transferConflictKeys,
  mass: (_tx, bytes) => ({ bytes, sigOps: 1, gas: 0 }),

  checkContext: checkTransferContext,
  apply: applyTransfer,
  parties: transferParties,
  view: transferView,
};

/** Signs a standard transfer with the key that owns `from`. `auxRand`: 32 fresh random bytes (BIP340 aux). */
export function signTransfer(tx: UnsignedTransfer, privateKey: Uint8Array, auxRand: Uint8Array): TransferTransaction {
  const owner = standardAddress(publicKeyFromPrivate(privateKey));
  if (!equalBytes(owner, tx.from)) failEncode('signTransfer: the private key does not own the from address');
  const signature = schnorrSign(signingHashOfBody(transferKind.encodeBody(tx as TransferTransaction)), privateKey, auxRand);
  return { ...tx, signature };
}
