// Fixtures for the confidential kinds: a deterministic random source, stealth wallets, and a small ledger that
// drives acceptMergeset block by block (accounts and namespaced records kept in maps), so tests see exactly what
// acceptance accepts, refuses and writes.
import { TxKind } from '../../src/codec/transaction-kinds.ts';
import { regtestParams } from '../../src/consensus/params.ts';
import { blake3 } from '../../src/crypto/blake3.ts';
import { keysFromSpendSecret, type MoneroKeys } from '../../src/crypto/monero/keys.ts';
import type { RandomBytes } from '../../src/crypto/monero/scalar.ts';
import { witnessVerifierOver } from '../../src/crypto/witness-check.ts';
import { nobleVerifier } from '../../src/crypto/verifier.ts';
import type { AnyTransaction } from '../../src/kinds/kind.ts';
import { kindOf } from '../../src/kinds/registry.ts';
import { signingHashOfBody } from '../../src/kinds/signing.ts';
import { acceptMergeset } from '../../src/state/acceptance.ts';
import type { StoredAccount } from '../../src/state/account-codec.ts';
import { stateKey } from '../../src/state/namespaces.ts';
import { toHex } from '../../src/util/bytes.ts';
import type { StealthRecipient } from '../../src/wallet/confidential.ts';
import { wallet } from './ledger-fixtures.ts';

export const chainId = regtestParams.chainId;

/** BLAKE3(seed ‖ counter) as a stream: reproducible proofs and signatures. */
export function seededRandom(seed: number): RandomBytes {
  let counter = 0;
  return (length) => {
    const out = new Uint8Array(length);
    for (let at = 0; at < length; at += 32) {
      const block = blake3(new TextEncoder().encode(`weft-test/${seed}/${counter++}`));
      out.set(block.subarray(0, Math.min(32, length - at)), at);
    }
    return out;
  };
}

export interface StealthWallet {
  readonly keys: MoneroKeys;
  readonly recipient: StealthRecipient;
}

export function stealthWallet(seed: number): StealthWallet {
  const keys = keysFromSpendSecret(BigInt(seed) * 7919n + 12345n);
  return { keys, recipient: { spendPublic: keys.spendPublic, viewPublic: keys.viewPublic } };
}

export const miner = wallet(900).address;

/** Verifies every proof a transaction asks for on the calling thread (BIP340, CLSAG, BP+). */
export function proofsHold(tx: AnyTransaction): boolean {
  const kind = kindOf(tx);
  const checks = kind.witnessChecks(tx, signingHashOfBody(kind.encode(tx).subarray(0, kind.bodyBytes(tx))));
  return checks !== undefined && witnessVerifierOver(nobleVerifier).verifyWitnesses(checks).every(Boolean);
}

/** A ledger of maps driven by acceptMergeset: one merged block per `accept` call, at increasing DAA scores. */
export function createTestLedger(balances: readonly [Uint8Array, bigint][] = []) {
  const accounts = new Map<string, StoredAccount>();
  const records = new Map<string, Uint8Array>();
  let emitted = 0n;
  let daaScore = 1;
  for (const [address, balance] of balances) {
    accounts.set(toHex(address), { balance, nonce: 0n, energy: 0n, energyDaaScore: 0 });
    emitted += balance;
  }
  return {
    get daaScore() {
      return daaScore;
    },
    get emitted() {
      return emitted;
    },
    account: (address: Uint8Array) => accounts.get(toHex(address)),
    accounts: () => [...accounts.values()],
    record: (namespace: 'key_image' | 'confidential_output', id: Uint8Array) => records.get(toHex(stateKey(namespace, id))),
    /** Accepts `blocks` (each a list of transactions) as one mergeset; returns the acceptance result. */
    accept(...blocks: AnyTransaction[][]) {
      daaScore += 1;
      const result = acceptMergeset({
        read: (address) => accounts.get(toHex(address)),
        readRecord: (key) => records.get(toHex(key)),
        merged: blocks.map((txs, i) => ({ id: `${daaScore}-${i}`, miner, daaScore, blue: true, transactions: txs.map((tx) => ({ tx })) })),
        mergingMiner: miner,
        daaScore,
        emittedBefore: emitted,
      });
      for (const { address, account } of result.changes.values()) accounts.set(toHex(address), account);
      for (const [hex, change] of result.records) {
        if (change.value === null) records.delete(hex);
        else records.set(hex, change.value);
      }
      emitted = result.emitted;
      return result;
    },
  };
}

export { TxKind };
