/**
 * The client's completion receipt (docs/settlement.md "Claims"): the client's BIP340 signature over
 * BLAKE3("weft/escrow/receipt/v1" ‖ chain_id u32 LE ‖ escrow_id), handed to the agent off chain when the task is
 * done; the agent's claim carries it. Bound to the chain and the escrow, so it never releases another escrow.
 */
import { blake3 } from '../../crypto/blake3.ts';
import { schnorrSign } from '../../crypto/keys.ts';
import { escrowIdBytes } from './escrow-record.ts';

const receiptTag = new TextEncoder().encode('weft/escrow/receipt/v1');

export function completionReceiptHash(chainId: number, escrowId: Uint8Array): Uint8Array {
  const preimage = new Uint8Array(receiptTag.length + 4 + escrowIdBytes);
  preimage.set(receiptTag, 0);
  new DataView(preimage.buffer).setUint32(receiptTag.length, chainId, true);
  preimage.set(escrowId, receiptTag.length + 4);
  return blake3(preimage);
}

/** The client signs that escrow `escrowId` may be released to its agent. `auxRand`: 32 fresh random bytes. */
export function signCompletionReceipt(chainId: number, escrowId: Uint8Array, clientPrivateKey: Uint8Array, auxRand: Uint8Array): Uint8Array {
  return schnorrSign(completionReceiptHash(chainId, escrowId), clientPrivateKey, auxRand);
}
