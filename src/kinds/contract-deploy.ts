/**
 * Kind 0x10, contract deploy (docs/contracts.md "Transactions"): stores a Wasm module and runs its constructor.
 * The contract's address is BLAKE3 of the deployer and this transaction's nonce (src/crypto/address.ts), so it is
 * known before the deploy is mined. The deploy pays 21,000 + 32,000 + 200 per code byte + 16 per parameter byte
 * before the VM runs; a module prepare refuses, or a constructor that fails, leaves no contract and pays its gas.
 */
import { AddressType, contractAddress, standardAddress } from '../crypto/address.ts';
import { blake3 } from '../crypto/blake3.ts';
import { publicKeyFromPrivate, schnorrSign } from '../crypto/keys.ts';
import { TxKind } from '../codec/transaction-kinds.ts';
import { vmInputBytesMax, vmModuleBytesMax } from '../limits.ts';
import { equalBytes, toHash0x, toHex } from '../util/bytes.ts';
import { codeChunkId, codeChunks, contractHeaderId, encodeContractHeader, encodeContractValue } from '../vm/contract-state.ts';
import { PrepareError } from '../vm/errors.ts';
import type { ValueTransfer } from '../vm/host-functions.ts';
import { constructorEntry } from '../vm/execute.ts';
import { deployIntrinsicGas } from '../vm/gas-schedule.ts';
import { prepare, type PreparedContract } from '../vm/prepare.ts';
import { readDeploy, writeDeployBody } from './contract-codec.ts';
import {
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
import type { TxKindModule } from './kind.ts';
import { signingHashOfBody, withSignature } from './signing.ts';
import { failDecode, failEncode, type Fail } from './value-transfer.ts';

export interface UnsignedContractDeploy extends ContractTxFields {
  readonly kind: typeof TxKind.ContractDeploy;
  /** The prepare version the code is to run under (src/vm/prepare.ts). */
  readonly vmVersion: number;
  /** The original module bytes. */
  readonly code: Uint8Array;
}
export interface ContractDeployTransaction extends UnsignedContractDeploy {
  readonly signature: Uint8Array;
}

function check(tx: UnsignedContractDeploy, fail: Fail): void {
  checkContractFields(tx, fail);
  if (!Number.isInteger(tx.vmVersion) || tx.vmVersion < 0 || tx.vmVersion > 0xff) fail(`transaction vm_version: got ${tx.vmVersion}, expected a u8`);
  if (!(tx.code instanceof Uint8Array) || tx.code.length > vmModuleBytesMax) fail(`transaction code: at most ${vmModuleBytesMax} bytes`);
}

/** kind, chain_id, from, nonce, gas_limit, gas_price, value, use_energy, vm_version, code_len, params_len. */
const deployBodyFixedBytes = 1 + 4 + 33 + 8 * 4 + 1 + 1 + 4 + 4;

export const deployIntrinsic = (tx: UnsignedContractDeploy): bigint => deployIntrinsicGas(tx.code.length, tx.params.length);

/** The address the deploy creates. */
export const deployedAddress = (tx: Pick<ContractTxFields, 'from' | 'nonce'>): Uint8Array => contractAddress(tx.from, tx.nonce);

export const contractDeployKind: TxKindModule<ContractDeployTransaction> = {
  tag: TxKind.ContractDeploy,
  name: 'contract_deploy',

  decode(bytes) {
    const raw = readDeploy(bytes, vmModuleBytesMax, vmInputBytesMax);
    const tx: ContractDeployTransaction = { ...raw, kind: TxKind.ContractDeploy };
    check(tx, failDecode);
    return tx;
  },
  encode(tx) {
    check(tx, failEncode);
    return withSignature(writeDeployBody(TxKind.ContractDeploy, tx), tx.signature, failEncode);
  },
  encodeBody(tx) {
    check(tx, failEncode);
    return writeDeployBody(TxKind.ContractDeploy, tx);
  },
  bodyBytes: (tx) => deployBodyFixedBytes + tx.code.length + tx.params.length,

  ...contractTxCommon,

  checkContext: (state, tx) => checkContractContext(state, tx, deployIntrinsic(tx)),
  apply(state, tx) {
    const intrinsic = deployIntrinsic(tx);
    const address = deployedAddress(tx);
    let prepared: PreparedContract | undefined;
    try {
      prepared = prepare(tx.code, tx.vmVersion);
    } catch (error) {
      if (!(error instanceof PrepareError)) throw error;
    }
    if (!prepared) {
      const refused = { contract: address, method: '', status: 'prepare_refused', gasUsed: intrinsic, events: [], returnData: new Uint8Array(0) } as const;
      return { ...settle(state, tx, address, intrinsic, false), receipt: refused };
    }
    let gasUsed = intrinsic;
    let transfers: readonly ValueTransfer[] = [];
    let receipt = receiptOf(address, '', intrinsic, undefined);
    if (prepared.entryPoints.includes(constructorEntry)) {
      const result = runContract(state, tx, address, prepared, constructorEntry, intrinsic, true);
      gasUsed += result.gasUsed;
      receipt = receiptOf(address, constructorEntry, intrinsic, result);
      if (result.status !== 'ok') return { ...settle(state, tx, address, gasUsed, false), receipt };
      commitWrites(state, address, result.writes);
      transfers = result.transfers;
    }
    codeChunks(tx.code).forEach((chunk, i) => state.setRecord('contract_code', codeChunkId(prepared.codeHash, i), encodeContractValue(chunk)));
    const header = { codeHash: prepared.codeHash, codeBytes: tx.code.length, vmVersion: tx.vmVersion, deployer: tx.from };
    state.setRecord('contract_storage', contractHeaderId(address), encodeContractHeader(header));
    return { ...settle(state, tx, address, gasUsed, true, transfers), receipt };
  },
  parties: (tx) => contractParties(tx, deployedAddress(tx)),
  view: (tx, hrp) => ({
    ...contractSeedView(tx, deployedAddress(tx), hrp),
    code_hash: toHash0x(blake3(tx.code)),
    code_size: tx.code.length,
    vm_version: tx.vmVersion,
    constructor_params: `0x${toHex(tx.params)}`,
  }),
};

/** Signs a deploy with the key that owns `from`. `auxRand`: 32 fresh random bytes (BIP340 aux). */
export function signContractDeploy(tx: UnsignedContractDeploy, privateKey: Uint8Array, auxRand: Uint8Array): ContractDeployTransaction {
  if (!equalBytes(standardAddress(publicKeyFromPrivate(privateKey)), tx.from) || tx.from[0] !== AddressType.Standard) {
    failEncode('signContractDeploy: the private key does not own the from address');
  }
  const signature = schnorrSign(signingHashOfBody(contractDeployKind.encodeBody(tx as ContractDeployTransaction)), privateKey, auxRand);
  return { ...tx, signature };
}
