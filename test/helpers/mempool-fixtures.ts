// Fixtures for mempool tests and the admission benchmark: deterministic keys, a Map-backed AccountReader (the port
// the ledger implements) and signed transfers. Signing goes through libsecp256k1 (tiny-secp256k1) because @noble
// signs ~20× slower and property tests sign thousands; every signature is still checked by the pool's verifier.
import { signSchnorr, xOnlyPointFromScalar } from 'tiny-secp256k1';
import { standardAddress } from '../../src/crypto/address.ts';
import { encodeTransaction, signingHash, type TransferTransaction, type UnsignedTransfer } from '../../src/kinds/transaction-codec.ts';
import { TxKind } from '../../src/codec/transaction-kinds.ts';
import { emptyAccount, type Account, type AccountReader } from '../../src/state/account.ts';
import { toHex } from '../../src/util/bytes.ts';

export const testChainId = 1338;

/** Private key number `i` (1-based, small, valid). */
export function testKey(i: number): Uint8Array {
  const key = new Uint8Array(32);
  key[0] = 0x11;
  new DataView(key.buffer).setUint32(28, i + 1);
  return key;
}

export function addressOfKey(key: Uint8Array): Uint8Array {
  return standardAddress(xOnlyPointFromScalar(key));
}

export interface TestAccounts extends AccountReader {
  set(address: Uint8Array, account: Partial<Account>): void;
  get(address: Uint8Array): Account;
}

export function createTestAccounts(): TestAccounts {
  const map = new Map<string, Account>();
  const get = (address: Uint8Array) => map.get(toHex(address)) ?? emptyAccount;
  return {
    account: get,
    get,
    set(address, account) {
      map.set(toHex(address), { ...get(address), ...account });
    },
  };
}

export interface TransferSpec {
  readonly key: Uint8Array;
  readonly to?: Uint8Array;
  readonly amount?: bigint;
  readonly fee?: bigint;
  readonly nonce?: bigint;
  readonly useEnergy?: boolean;
  readonly memo?: Uint8Array;
  readonly chainId?: number;
}

const defaultTo = new Uint8Array(33).fill(7).map((v, i) => (i === 0 ? 0 : v));

/** A signed standard transfer's canonical bytes. Default fee 10,000 units (~62 units per byte). */
export function signedTransfer(spec: TransferSpec): Uint8Array {
  const unsigned: UnsignedTransfer = {
    kind: TxKind.Transfer,
    chainId: spec.chainId ?? testChainId,
    from: addressOfKey(spec.key),
    to: spec.to ?? defaultTo,
    amount: spec.amount ?? 1_000n,
    fee: spec.fee ?? 10_000n,
    nonce: spec.nonce ?? 0n,
    useEnergy: spec.useEnergy ?? false,
    memo: spec.memo ?? new Uint8Array(0),
  };
  const signature = signSchnorr(signingHash(unsigned), spec.key, new Uint8Array(32));
  const signed: TransferTransaction = { ...unsigned, signature };
  return encodeTransaction(signed);
}
