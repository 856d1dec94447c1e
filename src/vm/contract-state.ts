/**
 * Where a contract lives in the state trie (docs/contracts.md "State layout"), shared by the contract kinds that
 * write it, the ledger that proves it and get_contract_state that reads it:
 *
 * - `contract_code`: the original module bytes (what prepare reads) in chunks of `contractCodeChunkBytes`, since a
 *   trie value holds at most 4,096 bytes: chunk 0 at id = BLAKE3(code), chunk i at BLAKE3(tag ‖ BLAKE3(code) ‖ u16 i);
 *   value = version 1 ‖ the chunk;
 * - `contract_storage`, id = contract address (33) ‖ slot (32): value = version 1 ‖ the stored bytes, where
 *   slot = BLAKE3("weft/contract-slot/v1" ‖ u8 len(variable) ‖ variable ‖ key) — so one (variable, key) is one
 *   direct lookup, provable against a header like a balance;
 * - the contract's header (code hash, code length, prepare version, deployer) at the slot of the empty variable name, which no
 *   contract can use (names are 1–64 characters), so it needs no namespace of its own.
 */
import { addressBytes } from '../crypto/address.ts';
import { blake3 } from '../crypto/blake3.ts';
import { DecodeError } from '../errors.ts';
import { vmVariableNameBytesMax } from '../limits.ts';
import { concatBytes } from '../util/bytes.ts';

/** The version byte of contract_code and contract_storage values. */
export const contractRecordVersion = 1;

const slotTag = new TextEncoder().encode('weft/contract-slot/v1');
const chunkTag = new TextEncoder().encode('weft/contract-code-chunk/v1');

/** Code bytes per contract_code record (with the version byte, inside the trie's 4,096-byte values). */
export const contractCodeChunkBytes = 4_000;

/** The contract_code id of chunk `index` of the code whose BLAKE3 is `codeHash`. */
export function codeChunkId(codeHash: Uint8Array, index: number): Uint8Array {
  if (index === 0) return codeHash;
  return blake3(concatBytes(chunkTag, codeHash, Uint8Array.of(index >> 8, index & 0xff)));
}

/** The chunks of `code`, in order (at least one, possibly empty). */
export function codeChunks(code: Uint8Array): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  for (let at = 0; at < code.length || chunks.length === 0; at += contractCodeChunkBytes) chunks.push(code.subarray(at, at + contractCodeChunkBytes));
  return chunks;
}
const ascii = new TextEncoder();

/** The 32-byte slot of (variable, key). The variable is ASCII (the host refuses other names). */
function contractSlot(variable: string, key: Uint8Array): Uint8Array {
  const name = ascii.encode(variable);
  if (name.length > vmVariableNameBytesMax) throw new DecodeError(`variable name of ${name.length} bytes, at most ${vmVariableNameBytesMax}`);
  return blake3(concatBytes(slotTag, Uint8Array.of(name.length), name, key));
}

/** The contract_storage id of (contract, variable, key). */
export function contractStorageId(contract: Uint8Array, variable: string, key: Uint8Array): Uint8Array {
  return concatBytes(contract, contractSlot(variable, key));
}

/** The contract_storage id of a contract's header. */
export function contractHeaderId(contract: Uint8Array): Uint8Array {
  return contractStorageId(contract, '', new Uint8Array(0));
}

export interface ContractHeader {
  readonly codeHash: Uint8Array;
  readonly codeBytes: number;
  readonly vmVersion: number;
  readonly deployer: Uint8Array;
}

/** A value stored in contract_storage or contract_code: the version byte, then the bytes. */
export function encodeContractValue(bytes: Uint8Array): Uint8Array {
  return concatBytes(Uint8Array.of(contractRecordVersion), bytes);
}

export function decodeContractValue(value: Uint8Array): Uint8Array {
  if (value.length < 1 || value[0] !== contractRecordVersion) throw new DecodeError(`contract record version ${value[0]}, expected ${contractRecordVersion}`);
  return value.subarray(1);
}

export function encodeContractHeader(header: ContractHeader): Uint8Array {
  const length = new Uint8Array(4);
  new DataView(length.buffer).setUint32(0, header.codeBytes, true);
  return encodeContractValue(concatBytes(header.codeHash, length, Uint8Array.of(header.vmVersion), header.deployer));
}

export function decodeContractHeader(value: Uint8Array): ContractHeader {
  const body = decodeContractValue(value);
  if (body.length !== 32 + 4 + 1 + addressBytes) throw new DecodeError(`contract header of ${body.length} bytes`);
  const codeBytes = new DataView(body.buffer, body.byteOffset + 32, 4).getUint32(0, true);
  return { codeHash: body.slice(0, 32), codeBytes, vmVersion: body[36]!, deployer: body.slice(37) };
}
