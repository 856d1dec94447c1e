/**
 * Kind 0x11, contract call (docs/contracts.md "Transactions"): runs one exported method of a deployed contract with
 * the sender as caller, optionally moving `value` to the contract. It pays 21,000 + 16 per byte of method name and
 * parameters before the VM runs. A call to an address with no contract is not accepted (nothing happens, nothing is
 * paid); a call that fails in the VM — revert, trap, out of gas, stack, a missing method — pays its gas and changes
 * nothing else.
 */
import { AddressType, standardAddress } from '../crypto/address.ts';
import { publicKeyFromPrivate, schnorrSign } from '../crypto/keys.ts';
import { TxKind } from '../codec/transaction-kinds.ts';
import { contractMethodBytesMax, vmInputBytesMax } from '../limits.ts';
import { equalBytes, toHex } from '../util/bytes.ts';
import { codeChunkId, contractCodeChunkBytes, contractHeaderId, decodeContractHeader, decodeContractValue } from '../vm/contract-state.ts';
import { callIntrinsicGas } from '../vm/gas-schedule.ts';
import { prepare } from '../vm/prepare.ts';
import { readCall, writeCallBody } from './contract-codec.ts';
import {
  checkAddressField,
  checkContractContext,
  checkContractFields,
  commitWrites,
  contractTxCommon,
  contractParties,
  contractSeedView,
  receiptOf,
  runContract,
  settle,
  type ContractTxFields,
} from './contract-tx.ts';
import type { TxKindModule, TxStateView } from './kind.ts';
import { signingHashOfBody, withSignature } from './signing.ts';
import { failDecode, failEncode, type Fail } from './value-transfer.ts';

export interface UnsignedContractCall extends ContractTxFields {
  readonly kind: typeof TxKind.ContractCall;
  readonly contract: Uint8Array;
  /** The exported method: ASCII [A-Za-z0-9_], 1–64 characters. */
  readonly method: string;
}
export interface ContractCallTransaction extends UnsignedContractCall {
  readonly signature: Uint8Array;
}

const methodName = /^[A-Za-z0-9_]{1,64}$/;
/** kind, chain_id, from, contract, nonce, gas_limit, gas_price, value, use_energy, method_len, params_len. */
const callBodyFixedBytes = 1 + 4 + 33 + 33 + 8 * 4 + 1 + 1 + 4;

function check(tx: UnsignedContractCall, fail: Fail): void {
  checkContractFields(tx, fail);
  checkAddressField('contract', tx.contract, AddressType.Contract, fail);
  if (typeof tx.method !== 'string' || !methodName.test(tx.method)) fail(`transaction method: expected 1–${contractMethodBytesMax} characters of [A-Za-z0-9_]`);
}

export const callIntrinsic = (tx: UnsignedContractCall): bigint => callIntrinsicGas(tx.method.length, tx.params.length);

/** The deployed contract's code and prepare version, or undefined when `contract` holds none. */
export function deployedCode(state: Pick<TxStateView, 'record'>, contract: Uint8Array): { code: Uint8Array; vmVersion: number } | undefined {
  const header = state.record('contract_storage', contractHeaderId(contract));
  if (header === undefined) return undefined;
  const { codeHash, codeBytes, vmVersion } = decodeContractHeader(header);
  const code = new Uint8Array(codeBytes);
  for (let i = 0, at = 0; at < codeBytes; i++, at += contractCodeChunkBytes) {
    const chunk = state.record('contract_code', codeChunkId(codeHash, i));
    if (chunk === undefined) return undefined;
    code.set(decodeContractValue(chunk), at);
  }
  return { code, vmVersion };
}

export const contractCallKind: TxKindModule<ContractCallTransaction> = {
  tag: TxKind.ContractCall,
  name: 'contract_call',

  decode(bytes) {
    const raw = readCall(bytes, contractMethodBytesMax, vmInputBytesMax);
    const tx: ContractCallTransaction = { ...raw, kind: TxKind.ContractCall };
    check(tx, failDecode);
    return tx;
  },
  encode(tx) {
    check(tx, failEncode);
    return withSignature(writeCallBody(TxKind.ContractCall, tx), tx.signature, failEncode);
  },
  encodeBody(tx) {
    check(tx, failEncode);
    return writeCallBody(TxKind.ContractCall, tx);
  },
  bodyBytes: (tx) => callBodyFixedBytes + tx.method.length + tx.params.length,

  ...contractTxCommon,

  checkContext(state, tx) {
    const reason = checkContractContext(state, tx, callIntrinsic(tx));
    if (reason !== undefined) return reason;
    return deployedCode(state, tx.contract) === undefined ? 'no-contract' : undefined;
  },
  apply(state, tx) {
    const intrinsic = callIntrinsic(tx);
    const { code, vmVersion } = deployedCode(state, tx.contract)!;
    // Stored code passed prepare at deploy under this version, and prepare is pure: it cannot be refused now.
    const prepared = prepare(code, vmVersion);
    const result = runContract(state, tx, tx.contract, prepared, tx.method, intrinsic, false);
    if (result.status === 'ok') commitWrites(state, tx.contract, result.writes);
    const paid = settle(state, tx, tx.contract, intrinsic + result.gasUsed, result.status === 'ok', result.status === 'ok' ? result.transfers : []);
    return { ...paid, receipt: receiptOf(tx.contract, tx.method, intrinsic, result) };
  },
  parties: (tx) => contractParties(tx, tx.contract),
  view: (tx, hrp) => ({ ...contractSeedView(tx, tx.contract, hrp), method: tx.method, parameters: `0x${toHex(tx.params)}` }),
};

/** Signs a call with the key that owns `from`. `auxRand`: 32 fresh random bytes (BIP340 aux). */
export function signContractCall(tx: UnsignedContractCall, privateKey: Uint8Array, auxRand: Uint8Array): ContractCallTransaction {
  if (!equalBytes(standardAddress(publicKeyFromPrivate(privateKey)), tx.from)) failEncode('signContractCall: the private key does not own the from address');
  const signature = schnorrSign(signingHashOfBody(contractCallKind.encodeBody(tx as ContractCallTransaction)), privateKey, auxRand);
  return { ...tx, signature };
}
