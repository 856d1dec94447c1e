/**
 * The line-rate load generator (issue 29), shared by bench/throughput.ts and the network lab (bench/lab/load.ts):
 * deterministic funded wallets and pre-signed regtest transfers. Signing uses tiny-secp256k1 (native speed), so a
 * bench can sign thousands of transfers a second ahead of offering them.
 */
import { signSchnorr, xOnlyPointFromScalar } from 'tiny-secp256k1';
import { encodeTransaction, signingHash, type TransferTransaction } from '../src/kinds/transaction-codec.ts';
import { TxKind } from '../src/codec/transaction-kinds.ts';
import { regtestParams } from '../src/consensus/params.ts';
import { standardAddress } from '../src/crypto/address.ts';
import { toHex } from '../src/util/bytes.ts';

/** The mempool's transactions per address (mempoolTxPerAddressMax): how many senders one distributor funds. */
export const fanout = 64;
/** Above 1 unit a byte for a ~165-byte transfer. */
export const fee = 250n;

export interface Wallet { readonly key: Uint8Array; readonly address: Uint8Array; nonce: bigint }

/** The bench's wallet number `seed` (a fixed private key). */
export function wallet(seed: number): Wallet {
  const key = new Uint8Array(32);
  new DataView(key.buffer).setUint32(24, 0x7e57);
  new DataView(key.buffer).setUint32(28, seed + 1);
  return walletOfKey(key);
}

export function walletOfKey(key: Uint8Array): Wallet {
  return { key, address: standardAddress(xOnlyPointFromScalar(key)), nonce: 0n };
}

const zeroAux = new Uint8Array(32);

/** A signed regtest transfer as 0x hex (send_raw_transaction's form); takes the sender's next nonce. */
export function transfer(from: Wallet, to: Uint8Array, amount: bigint): string {
  const body = { kind: TxKind.Transfer, chainId: regtestParams.chainId, from: from.address, to, amount, fee, nonce: from.nonce++, useEnergy: false, memo: new Uint8Array(0) } as const;
  const tx: TransferTransaction = { ...body, signature: signSchnorr(signingHash(body), from.key, zeroAux) };
  return `0x${toHex(encodeTransaction(tx))}`;
}
