/**
 * Accounts in the state trie (docs/state.md "Accounts"). Key = BLAKE3("weft/state/account/v1" ‖ address), the
 * 33-byte binary address (type byte + payload), so keys spread evenly over the trie and other record kinds (agent
 * accounts, escrows, contract storage) get their own tags. Value, 33 bytes, little-endian:
 *
 *   kind u8 = 0 (account v1) | balance u64 | nonce u64 | energy u64 | energyDaaScore u64
 *
 * An account with zero balance, nonce and energy is absent from the trie (its energyDaaScore is moot: nothing
 * accrues on a zero balance), so "never used" and "empty" have one representation and the root depends on the key → value map only. Pure: light clients decode proven
 * values with it.
 */
import { blake3 } from '../crypto/blake3.ts';
import { DecodeError } from '../errors.ts';
import { concatBytes } from '../util/bytes.ts';

export interface StoredAccount {
  readonly balance: bigint;
  readonly nonce: bigint;
  /** Energy as of `energyDaaScore` (src/state/energy.ts settles it forward). */
  readonly energy: bigint;
  readonly energyDaaScore: number;
}

export const emptyStoredAccount: StoredAccount = Object.freeze({ balance: 0n, nonce: 0n, energy: 0n, energyDaaScore: 0 });
export const accountValueBytes = 33;
const accountKind = 0;
const accountKeyTag = new TextEncoder().encode('weft/state/account/v1');

/** The trie key of an address's account. */
export function accountKey(address: Uint8Array): Uint8Array {
  return blake3(concatBytes(accountKeyTag, address));
}

export function isEmptyAccount(a: StoredAccount): boolean {
  return a.balance === 0n && a.nonce === 0n && a.energy === 0n;
}

export function encodeAccount(a: StoredAccount): Uint8Array {
  const out = new Uint8Array(accountValueBytes);
  const view = new DataView(out.buffer);
  out[0] = accountKind;
  view.setBigUint64(1, a.balance, true);
  view.setBigUint64(9, a.nonce, true);
  view.setBigUint64(17, a.energy, true);
  view.setBigUint64(25, BigInt(a.energyDaaScore), true);
  return out;
}

export function decodeAccount(bytes: Uint8Array): StoredAccount {
  if (bytes.length !== accountValueBytes || bytes[0] !== accountKind) {
    throw new DecodeError(`account value: got ${bytes.length} bytes of kind ${bytes[0]}, expected ${accountValueBytes} of kind ${accountKind}`);
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const energyDaaScore = view.getBigUint64(25, true);
  if (energyDaaScore > BigInt(Number.MAX_SAFE_INTEGER)) throw new DecodeError('account value: energy DAA score is not a safe integer');
  return {
    balance: view.getBigUint64(1, true),
    nonce: view.getBigUint64(9, true),
    energy: view.getBigUint64(17, true),
    energyDaaScore: Number(energyDaaScore),
  };
}
