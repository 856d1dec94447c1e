/**
 * Accounts in the state trie (docs/state.md "Accounts"), the `account` namespace of src/state/namespaces.ts.
 * Key = BLAKE3("weft/state/account/v1" ‖ address), the 33-byte binary address (type byte + payload), so keys spread
 * evenly over the trie and the other namespaces (agent accounts, escrows, contract storage …) get their own tags.
 * Value, 33 bytes, little-endian:
 *
 *   version u8 = 0 (account v1) | balance u64 | nonce u64 | energy u64 | energyDaaScore u64
 *
 * The first byte is the record version (src/state/state-record.ts): a later account layout (agent metadata, say) is
 * a new version beside v1, never a migration of stored values; decoding a version this code does not know is a
 * DecodeError with `details.reason` 'record-version-unknown'.
 *
 * An account with zero balance, nonce and energy is absent from the trie (its energyDaaScore is moot: nothing
 * accrues on a zero balance), so "never used" and "empty" have one representation and the root depends on the key → value map only. Pure: light clients decode proven
 * values with it.
 */
import { DecodeError } from '../errors.ts';
import { recordVersionOf, stateRecordKey, unknownRecordVersion } from './state-record.ts';

export interface StoredAccount {
  readonly balance: bigint;
  readonly nonce: bigint;
  /** Energy as of `energyDaaScore` (src/state/energy.ts settles it forward). */
  readonly energy: bigint;
  readonly energyDaaScore: number;
}

export const emptyStoredAccount: StoredAccount = Object.freeze({ balance: 0n, nonce: 0n, energy: 0n, energyDaaScore: 0 });
const accountValueBytes = 33;
/** The record version byte of account v1, the only account layout so far. */
export const accountRecordVersion = 0;
/** The key tag of the `account` namespace: every existing state root depends on exactly this string. */
export const accountKeyTag = 'weft/state/account/v1';

/** The trie key of an address's account: BLAKE3("weft/state/account/v1" ‖ address). */
export function accountKey(address: Uint8Array): Uint8Array {
  return stateRecordKey(accountKeyTag, address);
}

export function isEmptyAccount(a: StoredAccount): boolean {
  return a.balance === 0n && a.nonce === 0n && a.energy === 0n;
}

export function encodeAccount(a: StoredAccount): Uint8Array {
  const out = new Uint8Array(accountValueBytes);
  const view = new DataView(out.buffer);
  out[0] = accountRecordVersion;
  view.setBigUint64(1, a.balance, true);
  view.setBigUint64(9, a.nonce, true);
  view.setBigUint64(17, a.energy, true);
  view.setBigUint64(25, BigInt(a.energyDaaScore), true);
  return out;
}

export function decodeAccount(bytes: Uint8Array): StoredAccount {
  const version = recordVersionOf(bytes, 'account');
  if (version !== accountRecordVersion) throw unknownRecordVersion('account', version, [accountRecordVersion]);
  if (bytes.length !== accountValueBytes) {
    throw new DecodeError(`account value v${version}: got ${bytes.length} bytes, expected ${accountValueBytes}`);
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
