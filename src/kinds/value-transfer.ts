/**
 * The value-transfer family's shared half (kinds 0x00–0x0f that move coins between transparent accounts): one body
 * layout, one spending rule, one state transition and one JSON view. `transfer.ts` and `multisig-transfer.ts` add
 * only their witness and the proofs it carries.
 *
 *   body = kind u8 | chain_id u32 | from [33] | to [33] | amount u64 | fee u64 | nonce u64 | use_energy u8
 *          | memo_len u16 | memo [memo_len ≤ 256]
 *
 * Every integer little-endian and fixed-width; decoding refuses anything but exactly one encoding (docs/transactions.md).
 */
import { DecodeError } from '../errors.ts';
import { AddressType, addressBytes, checkAddressBytes, encodeAddress, InvalidAddressError } from '../crypto/address.ts';
import { formatUnits } from '../crypto/amount.ts';
import { toHex } from '../util/bytes.ts';
import { AddressDecodeError, InvalidTransactionError } from './errors.ts';
import type { Paid, Party, Spend, TxStateView } from './kind.ts';

/** A memo is a short note (an invoice id, a reference); bigger payloads belong to contracts. */
export const memoBytesMax = 256;
const u32Max = 0xffff_ffff;
const u64Max = (1n << 64n) - 1n;
/** kind + chain_id + from + to + amount + fee + nonce + use_energy + memo_len. */
const transferBodyFixedBytes = 1 + 4 + addressBytes + addressBytes + 8 + 8 + 8 + 1 + 2;

export interface TransferFields {
  /** docs/design.md: 1 mainnet, 2 testnet, 1337 devnet. */
  readonly chainId: number;
  /** 33-byte binary addresses (src/crypto/address.ts). */
  readonly from: Uint8Array;
  readonly to: Uint8Array;
  /** Base units (10^8 per coin), u64. */
  readonly amount: bigint;
  readonly fee: bigint;
  /** The sender's account nonce this transaction uses, u64. */
  readonly nonce: bigint;
  /** Pay the fee from the sender's energy instead of its balance. */
  readonly useEnergy: boolean;
  readonly memo: Uint8Array;
}

export type TransferBody = TransferFields & { readonly kind: number };

export type Fail = (message: string) => never;
export const failEncode: Fail = (message) => {
  throw new InvalidTransactionError(message);
};
export const failDecode: Fail = (message) => {
  throw new DecodeError(message);
};

/** The address passes checkAddressBytes; a bad one fails through `fail` (while decoding, as an AddressDecodeError). */
export function checkAddress(what: string, address: Uint8Array, fail: Fail): void {
  try {
    checkAddressBytes(address);
  } catch (error) {
    if (!(error instanceof InvalidAddressError)) throw error;
    if (fail === failDecode) throw new AddressDecodeError(`transaction ${what}: ${error.message}`, error);
    fail(`transaction ${what}: ${error.message}`);
  }
}

/** Range checks of every body field; `fromType` is the address type the kind's `from` must have. */
export function checkTransferFields(tx: TransferBody, fromType: AddressType, fail: Fail): void {
  if (!Number.isInteger(tx.chainId) || tx.chainId < 0 || tx.chainId > u32Max) {
    fail(`transaction chain_id: got ${tx.chainId}, expected a u32`);
  }
  checkAddress('from', tx.from, fail);
  checkAddress('to', tx.to, fail);
  if (tx.from[0] !== fromType) fail(`transaction from: got address type ${tx.from[0]}, expected ${fromType} for kind ${tx.kind}`);
  for (const [name, value] of [['amount', tx.amount], ['fee', tx.fee], ['nonce', tx.nonce]] as const) {
    if (typeof value !== 'bigint' || value < 0n || value > u64Max) fail(`transaction ${name}: got ${value}, expected a u64`);
  }
  if (typeof tx.useEnergy !== 'boolean') fail('transaction use_energy: expected a boolean');
  if (!(tx.memo instanceof Uint8Array) || tx.memo.length > memoBytesMax) {
    fail(`transaction memo: got ${tx.memo?.length} bytes, expected at most ${memoBytesMax}`);
  }
}

export function transferBodyBytes(tx: { readonly memo: Uint8Array }): number {
  return transferBodyFixedBytes + tx.memo.length;
}

/** Writes the body at the start of `out`; returns the offset after it. */
export function writeTransferBody(view: DataView, out: Uint8Array, tx: TransferBody): number {
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

/** The body of a value transfer, checked: what the signing hash covers. */
export function encodeTransferBody(tx: TransferBody, fromType: AddressType): Uint8Array {
  checkTransferFields(tx, fromType, failEncode);
  const out = new Uint8Array(transferBodyBytes(tx));
  writeTransferBody(new DataView(out.buffer), out, tx);
  return out;
}

/**
 * A bounds-checked cursor over untrusted bytes: every read past the end is a DecodeError naming the field. A class,
 * not a closure bag: every transaction decode makes one, and six closures a decode showed in the line-rate profile.
 */
export class TxReader {
  private readonly view: DataView;
  private at = 0;

  constructor(private readonly source: Uint8Array) {
    this.view = new DataView(source.buffer, source.byteOffset, source.byteLength);
  }

  private need(what: string, n: number): number {
    if (this.at + n > this.source.length) failDecode(`transaction ${what}: needs ${n} bytes at offset ${this.at}, have ${this.source.length - this.at}`);
    const start = this.at;
    this.at += n;
    return start;
  }

  u8(what: string): number {
    return this.view.getUint8(this.need(what, 1));
  }

  u16(what: string): number {
    return this.view.getUint16(this.need(what, 2), true);
  }

  u32(what: string): number {
    return this.view.getUint32(this.need(what, 4), true);
  }

  u64(what: string): bigint {
    return this.view.getBigUint64(this.need(what, 8), true);
  }

  bytes(what: string, n: number): Uint8Array {
    const start = this.need(what, n);
    return this.source.slice(start, this.at);
  }

  remaining(): number {
    return this.source.length - this.at;
  }
}

export function createTxReader(bytes: Uint8Array): TxReader {
  return new TxReader(bytes);
}

/** Reads the body (the tag is the first byte, already checked by the registry) and checks its fields. */
export function readTransferBody(read: TxReader, fromType: AddressType): TransferBody {
  const kind = read.u8('kind');
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
  const body = { kind, chainId, from, to, amount, fee, nonce, useEnergy: energyByte === 1, memo };
  checkTransferFields(body, fromType, failDecode);
  return body;
}

export function transferSpend(tx: TransferFields): Spend {
  return { payer: tx.from, nonce: tx.nonce, amount: tx.amount, fee: tx.fee, useEnergy: tx.useEnergy };
}

/** One pending transaction per sender and nonce: a second one is a replacement. */
export function transferConflictKeys(tx: TransferFields): string[] {
  return [`nonce:${toHex(tx.from)}:${tx.nonce}`];
}

/**
 * Accepted iff it still applies (docs/state.md "Acceptance"): nonce == the sender's account nonce, and
 *   use_energy = false: balance ≥ amount + fee;   use_energy = true: energy ≥ fee and balance ≥ amount.
 */
export function checkTransferContext(state: TxStateView, tx: TransferFields): string | undefined {
  const account = state.account(tx.from);
  if (tx.nonce !== account.nonce) return 'nonce';
  const coinFee = tx.useEnergy ? 0n : tx.fee;
  const energyFee = tx.useEnergy ? tx.fee : 0n;
  if (account.balance < tx.amount + coinFee) return 'balance';
  if (account.energy < energyFee) return 'energy';
  return undefined;
}

/** Moves the amount, takes the fee (coins to the carrying block's reward, or energy) and advances the nonce. */
export function applyTransfer(state: TxStateView, tx: TransferFields): Paid {
  const paid = debitSender(state, tx, tx.amount);
  if (tx.amount > 0n) state.credit(tx.to, tx.amount);
  return paid;
}

/** Takes `amount` and the fee (coins, or energy when `useEnergy`) from the sender and advances its nonce. */
export function debitSender(state: TxStateView, tx: Pick<TransferFields, 'from' | 'fee' | 'useEnergy'>, amount: bigint): Paid {
  const account = state.account(tx.from);
  const coinFee = tx.useEnergy ? 0n : tx.fee;
  const energyFee = tx.useEnergy ? tx.fee : 0n;
  state.setAccount(tx.from, {
    ...account,
    balance: account.balance - amount - coinFee,
    nonce: account.nonce + 1n,
    energy: account.energy - energyFee,
  });
  return { coinFee, energyFee };
}

export function transferParties(tx: TransferFields): Party[] {
  return [
    { address: tx.from, role: 'sender', amount: 0n },
    { address: tx.to, role: 'recipient', amount: tx.amount },
  ];
}

/**
 * The seed's transaction fields (node-client-protocol.md "Resources") a value transfer shows, each u64 also as an
 * exact decimal string (docs/api.md "Exact integers"): the fields are whatever the signer wrote — a carried but
 * never accepted transaction may move more than the supply or use a nonce past 2^53 — and a JSON number would round.
 */
export function transferView(tx: TransferFields, hrp: string): Record<string, unknown> {
  return { from: encodeAddress(hrp, tx.from), to: encodeAddress(hrp, tx.to), ...spendFields(tx.amount, tx.fee, tx.nonce, tx.useEnergy) };
}

/** The amount, fee, nonce and use_energy fields every paying kind shows, each u64 also as an exact decimal string. */
export function spendFields(amountUnits: bigint, feeUnits: bigint, nonce: bigint, useEnergy: boolean): Record<string, unknown> {
  const amount = formatUnits(amountUnits);
  const fee = formatUnits(feeUnits);
  return {
    amount: Number(amount),
    amount_exact: amount,
    fee: Number(fee),
    fee_exact: fee,
    nonce: Number(nonce),
    nonce_exact: nonce.toString(),
    use_energy: useEnergy,
  };
}
