/**
 * Building a transfer from a wallet address (`send_transaction`): fill the fields, sign with the wallet's key(s)
 * for `from`, and return the canonical bytes and hash ready for the mempool. A standard `from` is signed by its
 * key; a multisig `from` by the first m of the script's keys the wallet holds (all m must be in this wallet —
 * collecting shares from other parties is done with src/kinds/transaction-codec.ts signMultisigShare/assemble).
 * The nonce comes from the caller (the node asks `mempool.nextNonce(from)`), so the wallet never guesses state.
 */
import { AddressType } from '../crypto/address.ts';
import { auxRandBytes, type RandomBytes } from '../crypto/keys.ts';
import {
  assembleMultisigTransfer,
  encodeTransaction,
  signMultisigShare,
  signTransfer,
  type Transaction,
  type TransferFields,
} from '../kinds/transaction-codec.ts';
import { TxKind } from '../codec/transaction-kinds.ts';
import { blake3 } from '../crypto/blake3.ts';
import { WalletParamError } from './errors.ts';
import type { Wallet } from './wallet.ts';

export interface TransferRequest {
  readonly from: Uint8Array;
  readonly to: Uint8Array;
  readonly amount: bigint;
  readonly fee: bigint;
  readonly nonce: bigint;
  readonly useEnergy?: boolean;
  readonly memo?: Uint8Array;
}

export interface BuiltTransfer {
  readonly transaction: Transaction;
  /** Canonical encoding: what `mempool.add` and blocks take. */
  readonly bytes: Uint8Array;
  /** BLAKE3 of `bytes`: the transaction id. */
  readonly hash: Uint8Array;
}

export function buildTransfer(wallet: Wallet, request: TransferRequest, randomBytes: RandomBytes): BuiltTransfer {
  const entry = wallet.find(request.from);
  if (entry === undefined) throw new WalletParamError('not_in_wallet', `from: address is not in wallet "${wallet.name}"`);
  const fields: TransferFields = {
    chainId: wallet.network.chainId,
    from: request.from,
    to: request.to,
    amount: request.amount,
    fee: request.fee,
    nonce: request.nonce,
    useEnergy: request.useEnergy ?? false,
    memo: request.memo ?? new Uint8Array(0),
  };
  const aux = () => randomBytes(auxRandBytes);
  let transaction: Transaction;
  if (request.from[0] === AddressType.Standard) {
    const key = wallet.privateKeyOf(request.from.subarray(1))!;
    transaction = signTransfer({ kind: TxKind.Transfer, ...fields }, key, aux());
  } else {
    const script = entry.script!;
    const unsigned = { kind: TxKind.MultisigTransfer, ...fields } as const;
    const held = script.publicKeys.map((k) => wallet.privateKeyOf(k)).filter((k): k is Uint8Array => k !== undefined);
    if (held.length < script.m) {
      throw new WalletParamError('not_in_wallet', `from: wallet "${wallet.name}" holds ${held.length} of the ${script.m} keys this multisig needs`);
    }
    const shares = held.slice(0, script.m).map((key) => signMultisigShare(unsigned, script, key, aux()));
    transaction = assembleMultisigTransfer(unsigned, script, shares);
  }
  const bytes = encodeTransaction(transaction);
  return { transaction, bytes, hash: blake3(bytes) };
}
