/**
 * The contract kinds' canonical bytes (docs/contracts.md "Transactions"); every integer little-endian, fixed width:
 *
 *   deploy = kind u8 | chain_id u32 | from [33] | nonce u64 | gas_limit u64 | gas_price u64 | value u64
 *            | use_energy u8 | vm_version u8 | code_len u32 | code | params_len u32 | params | signature [64]
 *   call   = kind u8 | chain_id u32 | from [33] | contract [33] | nonce u64 | gas_limit u64 | gas_price u64
 *            | value u64 | use_energy u8 | method_len u8 | method | params_len u32 | params | signature [64]
 *
 * Decoding refuses anything but exactly one encoding: trailing bytes, a flag other than 0/1, an out-of-range field.
 */
import { addressBytes } from '../crypto/address.ts';
import { signatureBytes } from '../crypto/keys.ts';
import { concatBytes } from '../util/bytes.ts';
import type { ContractTxFields } from './contract-tx.ts';
import { createTxReader, failDecode, type TxReader } from './value-transfer.ts';

function le(bytes: number, value: bigint | number): Uint8Array {
  const out = new Uint8Array(bytes);
  const view = new DataView(out.buffer);
  if (bytes === 1) view.setUint8(0, Number(value));
  else if (bytes === 4) view.setUint32(0, Number(value), true);
  else view.setBigUint64(0, BigInt(value), true);
  return out;
}

/** nonce | gas_limit | gas_price | value | use_energy */
function economics(tx: ContractTxFields): Uint8Array {
  return concatBytes(le(8, tx.nonce), le(8, tx.gasLimit), le(8, tx.gasPrice), le(8, tx.value), le(1, tx.useEnergy ? 1 : 0));
}

export function writeDeployBody(kind: number, tx: ContractTxFields & { readonly vmVersion: number; readonly code: Uint8Array }): Uint8Array {
  return concatBytes(
    le(1, kind), le(4, tx.chainId), tx.from, economics(tx), le(1, tx.vmVersion),
    le(4, tx.code.length), tx.code, le(4, tx.params.length), tx.params,
  );
}

export function writeCallBody(kind: number, tx: ContractTxFields & { readonly contract: Uint8Array; readonly method: string }): Uint8Array {
  const method = new TextEncoder().encode(tx.method);
  return concatBytes(
    le(1, kind), le(4, tx.chainId), tx.from, tx.contract, economics(tx),
    le(1, method.length), method, le(4, tx.params.length), tx.params,
  );
}

function readEconomics(read: TxReader): Pick<ContractTxFields, 'nonce' | 'gasLimit' | 'gasPrice' | 'value' | 'useEnergy'> {
  const nonce = read.u64('nonce');
  const gasLimit = read.u64('gas_limit');
  const gasPrice = read.u64('gas_price');
  const value = read.u64('value');
  const flag = read.u8('use_energy');
  if (flag > 1) failDecode(`transaction use_energy: got ${flag}, expected 0 or 1`);
  return { nonce, gasLimit, gasPrice, value, useEnergy: flag === 1 };
}

function readSized(read: TxReader, what: string, max: number): Uint8Array {
  const length = read.u32(`${what} length`);
  if (length > max) failDecode(`transaction ${what}: ${length} bytes, at most ${max}`);
  return read.bytes(what, length);
}

export function readDeploy(bytes: Uint8Array, codeMax: number, paramsMax: number) {
  const read = createTxReader(bytes);
  const kind = read.u8('kind');
  const chainId = read.u32('chain_id');
  const from = read.bytes('from', addressBytes);
  const money = readEconomics(read);
  const vmVersion = read.u8('vm_version');
  const code = readSized(read, 'code', codeMax);
  const params = readSized(read, 'params', paramsMax);
  const signature = read.bytes('signature', signatureBytes);
  if (read.remaining() !== 0) failDecode(`transaction: ${read.remaining()} trailing bytes after the witness`);
  return { kind, chainId, from, ...money, vmVersion, code, params, signature };
}

export function readCall(bytes: Uint8Array, methodMax: number, paramsMax: number) {
  const read = createTxReader(bytes);
  const kind = read.u8('kind');
  const chainId = read.u32('chain_id');
  const from = read.bytes('from', addressBytes);
  const contract = read.bytes('contract', addressBytes);
  const money = readEconomics(read);
  const methodLength = read.u8('method length');
  if (methodLength > methodMax) failDecode(`transaction method: ${methodLength} bytes, at most ${methodMax}`);
  const method = String.fromCharCode(...read.bytes('method', methodLength));
  const params = readSized(read, 'params', paramsMax);
  const signature = read.bytes('signature', signatureBytes);
  if (read.remaining() !== 0) failDecode(`transaction: ${read.remaining()} trailing bytes after the witness`);
  return { kind, chainId, from, contract, ...money, method, params, signature };
}
