/**
 * Weft addresses.
 *
 * Binary form (33 bytes, what headers carry as `miner` and transactions as `from`/`to`): a type byte, then a 32-byte
 * payload.
 *   - type 0, standard: the payload is the owner's BIP340 x-only public key.
 *   - type 1, multisig: the payload is BLAKE3("weft/multisig/v1" || m || n || pubkey_1 || … || pubkey_n) over the
 *     keys sorted ascending (bytewise), so the same m-of-n set always gives the same address whatever order the keys
 *     were listed in.
 *   - type 0x10, contract (the contract kinds' family byte): the payload is BLAKE3("weft/contract/v1" || deployer ||
 *     deploy nonce u64 LE), so a contract's address is known before its deploy is mined (docs/contracts.md).
 *
 * String form: bech32m (BIP350) with the network's human-readable part (`weft`, `tweft`, `dweft`, docs/design.md "Networks and units"); the
 * data part is the 33 bytes regrouped into 5-bit words (53 words, zero-padded). BIP173 allows all-uppercase strings
 * (QR codes), so decoding accepts those; mixed case is refused.
 */
import { bech32m } from '@scure/base';
import { WeftError } from '../errors.ts';
import { compareBytes, concatBytes, equalBytes } from '../util/bytes.ts';
import { blake3 } from './blake3.ts';
import { InvalidKeyError, isValidPublicKey, publicKeyBytes } from './keys.ts';

export const AddressType = { Standard: 0, Multisig: 1, Contract: 0x10 } as const;
export type AddressType = (typeof AddressType)[keyof typeof AddressType];

const addressPayloadBytes = 32;
export const addressBytes = 1 + addressPayloadBytes;
/** Bitcoin Core's standard bare-multisig limit is 3 and P2SH's 15; Weft allows up to 16 keys in one script. */
export const multisigKeysMax = 16;
/** BIP173's limit on the whole string; a Weft address is 64 (`weft`) or 65 characters. */
export const addressCharsMax = 90;
/** The bech32m human-readable parts of the networks (docs/design.md "Networks and units"). */
export const addressHrp = { mainnet: 'weft', testnet: 'tweft', devnet: 'dweft', regtest: 'rweft' } as const;

const multisigTag = new TextEncoder().encode('weft/multisig/v1');
const contractTag = new TextEncoder().encode('weft/contract/v1');

export type InvalidAddressReason =
  | 'not_a_string'
  | 'too_long'
  | 'mixed_case'
  | 'no_separator'
  | 'wrong_network'
  | 'bad_checksum'
  | 'bad_padding'
  | 'wrong_length'
  | 'unknown_type';

/** An address that cannot be used: code -40002 (the seed's "Invalid address"); `details.reason` says why. */
export class InvalidAddressError extends WeftError {
  constructor(message: string, reason: InvalidAddressReason) {
    super('invalid_address', message, { details: { reason } });
  }
}

/** Checks a binary address: 33 bytes and a known type. Throws InvalidAddressError. */
export function checkAddressBytes(address: Uint8Array): void {
  if (!(address instanceof Uint8Array) || address.length !== addressBytes) {
    const got = address instanceof Uint8Array ? `${address.length} bytes` : typeof address;
    throw new InvalidAddressError(`address: got ${got}, expected ${addressBytes} bytes`, 'wrong_length');
  }
  const type = address[0]!;
  if (type !== AddressType.Standard && type !== AddressType.Multisig && type !== AddressType.Contract) {
    throw new InvalidAddressError(`address type: got ${type}, expected 0 (standard), 1 (multisig) or 16 (contract)`, 'unknown_type');
  }
}

/** The standard address of an x-only public key. */
export function standardAddress(publicKey: Uint8Array): Uint8Array {
  if (!isValidPublicKey(publicKey)) {
    throw new InvalidKeyError(`public key: expected ${publicKeyBytes} bytes naming a secp256k1 x coordinate`);
  }
  const out = new Uint8Array(addressBytes);
  out[0] = AddressType.Standard;
  out.set(publicKey, 1);
  return out;
}

/**
 * The multisig script hash over keys already sorted ascending (no validation: the transaction codec has checked the
 * order, and a bad key only makes signature checks fail).
 */
export function multisigScriptHash(m: number, sortedPublicKeys: readonly Uint8Array[]): Uint8Array {
  return blake3(concatBytes(multisigTag, Uint8Array.of(m, sortedPublicKeys.length), ...sortedPublicKeys));
}

/** Sorts and checks an m-of-n key set: 1 ≤ m ≤ n ≤ multisigKeysMax, valid distinct keys. Returns the sorted copy. */
export function canonicalMultisigKeys(m: number, publicKeys: readonly Uint8Array[]): Uint8Array[] {
  const n = publicKeys.length;
  if (!Number.isInteger(m) || m < 1 || m > n || n > multisigKeysMax) {
    throw new InvalidKeyError(`multisig: got m=${m}, n=${n}, expected 1 ≤ m ≤ n ≤ ${multisigKeysMax}`);
  }
  for (const key of publicKeys) {
    if (!isValidPublicKey(key)) throw new InvalidKeyError('multisig: a public key is not a valid x-only key');
  }
  const sorted = publicKeys.map((k) => Uint8Array.from(k)).sort(compareBytes);
  for (let i = 1; i < sorted.length; i++) {
    if (equalBytes(sorted[i - 1]!, sorted[i]!)) throw new InvalidKeyError('multisig: got a repeated public key');
  }
  return sorted;
}

/** The multisig address of an m-of-n key set (keys in any order). */
export function multisigAddress(m: number, publicKeys: readonly Uint8Array[]): Uint8Array {
  const sorted = canonicalMultisigKeys(m, publicKeys);
  return concatBytes(Uint8Array.of(AddressType.Multisig), multisigScriptHash(m, sorted));
}

/** The address of the contract `deployer` deploys with its account nonce `nonce`. */
export function contractAddress(deployer: Uint8Array, nonce: bigint): Uint8Array {
  checkAddressBytes(deployer);
  const n = new Uint8Array(8);
  new DataView(n.buffer).setBigUint64(0, nonce, true);
  return concatBytes(Uint8Array.of(AddressType.Contract), blake3(concatBytes(contractTag, deployer, n)));
}

function checkHrp(hrp: string): void {
  if (typeof hrp !== 'string' || !/^[a-z]{1,20}$/.test(hrp)) {
    throw new InvalidAddressError(`address prefix: got ${JSON.stringify(hrp)}, expected lowercase letters`, 'wrong_network');
  }
}

/** The bech32m string of a binary address for the network whose prefix is `hrp`. */
export function encodeAddress(hrp: string, address: Uint8Array): string {
  checkHrp(hrp);
  checkAddressBytes(address);
  return bech32m.encode(hrp, bech32m.toWords(address), addressCharsMax);
}

/**
 * Parses an address string of the network `expectedHrp` into its 33 bytes. Throws InvalidAddressError (-40002) for a
 * wrong network, a bad checksum (including a bech32 rather than bech32m one), mixed case, a wrong length or an
 * unknown type.
 */
export function decodeAddress(text: string, expectedHrp: string): Uint8Array {
  if (typeof text !== 'string') throw new InvalidAddressError(`address: got ${typeof text}, expected a string`, 'not_a_string');
  if (text.length > addressCharsMax) {
    throw new InvalidAddressError(`address: got ${text.length} characters, expected at most ${addressCharsMax}`, 'too_long');
  }
  const lower = text.toLowerCase();
  if (text !== lower && text !== text.toUpperCase()) throw new InvalidAddressError('address: got mixed case', 'mixed_case');
  const separator = lower.lastIndexOf('1');
  if (separator < 1) throw new InvalidAddressError('address: no bech32 separator "1" after a prefix', 'no_separator');
  const hrp = lower.slice(0, separator);
  if (hrp !== expectedHrp) {
    throw new InvalidAddressError(`address network: got prefix "${hrp}", expected "${expectedHrp}"`, 'wrong_network');
  }
  const decoded = bech32m.decodeUnsafe(lower, addressCharsMax);
  if (decoded === undefined) throw new InvalidAddressError('address: bech32m checksum or characters invalid', 'bad_checksum');
  const bytes = bech32m.fromWordsUnsafe(decoded.words);
  if (bytes === undefined) throw new InvalidAddressError('address: non-zero or excess padding bits', 'bad_padding');
  checkAddressBytes(bytes);
  return bytes;
}
