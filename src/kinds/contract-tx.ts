/**
 * The contract family's shared half (kinds 0x10 deploy and 0x11 call, docs/contracts.md "Transactions"): the common
 * fields, their checks, the spending rule, and running the VM against the state view acceptance hands in.
 *
 * Fees: a contract transaction promises at most gas_limit × gas_price (its `spend.fee`, what admission and the
 * context check hold it to) and pays gas_used × gas_price, from its balance or, with use_energy, its energy. A
 * failed call or constructor still pays for the gas it used; its value stays with the sender and its writes vanish.
 */
import type { ContractReceipt } from './contract-receipt.ts';
import { AddressType, encodeAddress } from '../crypto/address.ts';
import { formatUnits } from '../crypto/amount.ts';
import { contractTxGasLimitMax, vmInputBytesMax } from '../limits.ts';
import { toHex } from '../util/bytes.ts';
import { decodeContractValue, encodeContractValue, contractStorageId } from '../vm/contract-state.ts';
import { execute, type CallResult } from '../vm/execute.ts';
import type { ContractStoragePort, StorageWrite, ValueTransfer } from '../vm/host-functions.ts';
import { assert } from '../errors.ts';
import type { PreparedContract } from '../vm/prepare.ts';
import type { WitnessCheck } from '../crypto/witness-check.ts';
import type { MassParts, Paid, Party, Spend, TxStateView } from './kind.ts';
import { checkAddress, spendFields, type Fail } from './value-transfer.ts';

const u32Max = 0xffff_ffff;
const u64Max = (1n << 64n) - 1n;

/** What both contract kinds carry besides their own payload. */
export interface ContractTxFields {
  readonly chainId: number;
  /** The sender: a standard address, whose key signs. */
  readonly from: Uint8Array;
  readonly nonce: bigint;
  /** At most this much gas (≤ contractTxGasLimitMax), each unit paid at gas_price base units. */
  readonly gasLimit: bigint;
  readonly gasPrice: bigint;
  /** Base units moved to the contract if the call (or constructor) succeeds. */
  readonly value: bigint;
  readonly useEnergy: boolean;
  /** Canonical parameter bytes (src/vm/abi.ts). */
  readonly params: Uint8Array;
}

export function checkAddressField(what: string, address: Uint8Array, type: number, fail: Fail): void {
  checkAddress(what, address, fail);
  if (address[0] !== type) fail(`transaction ${what}: got address type ${address[0]}, expected ${type}`);
}

export function checkContractFields(tx: ContractTxFields, fail: Fail): void {
  if (!Number.isInteger(tx.chainId) || tx.chainId < 0 || tx.chainId > u32Max) fail(`transaction chain_id: got ${tx.chainId}, expected a u32`);
  checkAddressField('from', tx.from, AddressType.Standard, fail);
  for (const [name, value] of [['nonce', tx.nonce], ['gas_price', tx.gasPrice], ['value', tx.value]] as const) {
    if (typeof value !== 'bigint' || value < 0n || value > u64Max) fail(`transaction ${name}: got ${value}, expected a u64`);
  }
  if (typeof tx.gasLimit !== 'bigint' || tx.gasLimit < 1n || tx.gasLimit > BigInt(contractTxGasLimitMax)) {
    fail(`transaction gas_limit: got ${tx.gasLimit}, expected 1 to ${contractTxGasLimitMax}`);
  }
  if (tx.gasLimit * tx.gasPrice > u64Max) fail('transaction gas_limit × gas_price: over a u64');
  if (typeof tx.useEnergy !== 'boolean') fail('transaction use_energy: expected a boolean');
  if (!(tx.params instanceof Uint8Array) || tx.params.length > vmInputBytesMax) fail(`transaction params: at most ${vmInputBytesMax} bytes`);
}

const maxFeeOf = (tx: ContractTxFields): bigint => tx.gasLimit * tx.gasPrice;

/** What both contract kinds share: one BIP340 signature by `from`, the spend, the conflict keys and the mass. */
export const contractTxCommon = {
  witnessChecks: (tx: ContractTxFields & { readonly signature: Uint8Array }, message: Uint8Array): WitnessCheck[] => [
    { scheme: 'bip340', signature: tx.signature, message, publicKey: tx.from.subarray(1) },
  ],
  spend: contractSpend,
  conflictKeys: contractConflictKeys,
  mass: (tx: ContractTxFields, bytes: number): MassParts => ({ bytes, sigOps: 1, gas: Number(tx.gasLimit) }),
};

function contractSpend(tx: ContractTxFields): Spend {
  return { payer: tx.from, nonce: tx.nonce, amount: tx.value, fee: maxFeeOf(tx), useEnergy: tx.useEnergy };
}

function contractConflictKeys(tx: ContractTxFields): string[] {
  return [`nonce:${toHex(tx.from)}:${tx.nonce}`];
}

/** The state rules before anything runs: the sender's next nonce, and coins (or energy) for value + the most gas. */
export function checkContractContext(state: TxStateView, tx: ContractTxFields, intrinsicGas: bigint): string | undefined {
  const account = state.account(tx.from);
  if (tx.nonce !== account.nonce) return 'nonce';
  if (tx.gasLimit < intrinsicGas) return 'gas';
  const maxFee = maxFeeOf(tx);
  if (account.balance < tx.value + (tx.useEnergy ? 0n : maxFee)) return 'balance';
  if (tx.useEnergy && account.energy < maxFee) return 'energy';
  return undefined;
}

/** The contract's storage in the view, as the VM's port. */
function storagePort(state: TxStateView, contract: Uint8Array): ContractStoragePort {
  return {
    get(variable, key) {
      const value = state.record('contract_storage', contractStorageId(contract, variable, key));
      return value === undefined ? undefined : decodeContractValue(value);
    },
  };
}

export function commitWrites(state: TxStateView, contract: Uint8Array, writes: readonly StorageWrite[]): void {
  for (const w of writes) {
    state.setRecord('contract_storage', contractStorageId(contract, w.variable, w.key), w.value === undefined ? null : encodeContractValue(w.value));
  }
}

/** Runs `entry` of a prepared contract for a transaction, under what is left of its gas after `intrinsic`. */
export function runContract(state: TxStateView, tx: ContractTxFields, contract: Uint8Array, prepared: PreparedContract, entry: string, intrinsic: bigint, deploy: boolean): CallResult {
  const carrier = state.carrier();
  return execute({
    prepared,
    entry,
    deploy,
    input: tx.params,
    context: {
      caller: tx.from,
      self: contract,
      value: tx.value,
      balance: state.account(contract).balance,
      blockHeight: BigInt(carrier.daaScore),
      blockTimestamp: BigInt(Math.floor(carrier.timestampMs / 1000)),
    },
    storage: storagePort(state, contract),
    gasLimit: tx.gasLimit - intrinsic,
  });
}

/** The receipt of a run (`result` undefined: a deploy without a constructor, which succeeds with no VM gas). */
export function receiptOf(contract: Uint8Array, method: string, intrinsic: bigint, result: CallResult | undefined): ContractReceipt {
  if (result === undefined) return { contract, method, status: 'ok', gasUsed: intrinsic, events: [], returnData: new Uint8Array(0) };
  const gasUsed = intrinsic + result.gasUsed;
  if (result.status === 'ok') return { contract, method, status: 'ok', gasUsed, events: result.events, returnData: result.returnData };
  const message = result.status === 'revert' ? result.message : undefined;
  return { contract, method, status: result.status, gasUsed, events: [], returnData: new Uint8Array(0), ...(message === undefined ? {} : { message }) };
}

/**
 * Settles a contract transaction: the sender pays gas_used × gas_price and, if it succeeded, the value, which the
 * contract receives before what it sends out (`transfers`, bounded by the host to what it holds) leaves it; the
 * nonce advances either way.
 */
export function settle(state: TxStateView, tx: ContractTxFields, contract: Uint8Array, gasUsed: bigint, succeeded: boolean, transfers: readonly ValueTransfer[] = []): Paid {
  const account = state.account(tx.from);
  const fee = gasUsed * tx.gasPrice;
  const coinFee = tx.useEnergy ? 0n : fee;
  const energyFee = tx.useEnergy ? fee : 0n;
  const value = succeeded ? tx.value : 0n;
  state.setAccount(tx.from, { ...account, balance: account.balance - value - coinFee, nonce: account.nonce + 1n, energy: account.energy - energyFee });
  if (value > 0n) state.credit(contract, value);
  for (const { to, amount } of succeeded ? transfers : []) {
    const holder = state.account(contract);
    assert(holder.balance >= amount, 'the host lets a contract send only what it holds');
    state.setAccount(contract, { ...holder, balance: holder.balance - amount });
    state.credit(to, amount);
  }
  return { coinFee, energyFee };
}

/**
 * The seed's transaction fields for a contract transaction (docs/api.md "Transaction"): `to` is the contract, `amount`
 * the value sent, `fee` the most it may pay (`max_fee`, gas_limit × gas_price) until a receipt says what it paid
 * (gas used × gas price: src/rpc/views.ts `withPaidFee`). `gas_price` is in coins like `amount` and `fee`; its base
 * units per gas are `gas_price_units`.
 */
export function contractSeedView(tx: ContractTxFields, contract: Uint8Array, hrp: string): Record<string, unknown> {
  const maxFee = formatUnits(maxFeeOf(tx));
  const gasPrice = formatUnits(tx.gasPrice);
  return {
    from: encodeAddress(hrp, tx.from),
    to: encodeAddress(hrp, contract),
    ...spendFields(tx.value, maxFeeOf(tx), tx.nonce, tx.useEnergy),
    max_fee: Number(maxFee),
    max_fee_exact: maxFee,
    contract_address: encodeAddress(hrp, contract),
    gas_limit: Number(tx.gasLimit),
    gas_price: Number(gasPrice),
    gas_price_exact: gasPrice,
    gas_price_units: tx.gasPrice.toString(),
  };
}

export function contractParties(tx: ContractTxFields, contract: Uint8Array): Party[] {
  return [
    { address: tx.from, role: 'sender', amount: 0n },
    { address: contract, role: 'recipient', amount: tx.value },
  ];
}
