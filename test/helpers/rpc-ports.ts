// In-memory implementations of the RPC ports (src/rpc/ports.ts) built from real components — real keys and BIP340
// signatures, the real transaction codec and verifier, a real sparse Merkle trie for proofs — for RPC tests while
// the node's own ledger, mempool and wallet are wired elsewhere. Nothing here invents figures: balances move only
// through fund() and accept().
import { standardAddress } from '../../src/crypto/address.ts';
import { blake3 } from '../../src/crypto/blake3.ts';
import { ecdsaSign, ecdsaVerify, generatePrivateKey, publicKeyFromPrivate, schnorrSign, schnorrVerify } from '../../src/crypto/keys.ts';
import { nobleVerifier } from '../../src/crypto/verifier.ts';
import { signTransfer, txHash, verifyTransactionSignatures, type AnyTransaction, type Transaction } from '../../src/kinds/transaction-codec.ts';
import { balanceCost } from '../../src/kinds/kind.ts';
import { touches } from '../../src/kinds/parties.ts';
import { kindOf } from '../../src/kinds/registry.ts';
import { TxKind } from '../../src/codec/transaction-kinds.ts';
import type { NetworkParams } from '../../src/consensus/params.ts';
import { InsufficientBalanceError, PrivacyError, TransactionRejectedError } from '../../src/rpc/errors.ts';
import type { LedgerView, MempoolPort, TransactionRecord, WalletPort } from '../../src/rpc/ports.ts';
import { emptyAccount, type Account } from '../../src/state/account.ts';
import { createStateTrie } from '../../src/state/trie.ts';
import { emptyStateRoot } from '../../src/state/trie-hash.ts';
import { createMemoryStore } from '../../src/storage/memory-store.ts';
import { concatBytes, equalBytes, toHex } from '../../src/util/bytes.ts';

const random = (n: number): Uint8Array => crypto.getRandomValues(new Uint8Array(n));
const messageTag = new TextEncoder().encode('weft/message/v1');
export const messageDigest = (message: string): Uint8Array => blake3(concatBytes(messageTag, new TextEncoder().encode(message)));

function encodeAccount(a: Account): Uint8Array {
  const out = new Uint8Array(24);
  const view = new DataView(out.buffer);
  view.setBigUint64(0, a.balance);
  view.setBigUint64(8, a.nonce);
  view.setBigUint64(16, a.energy);
  return out;
}

export interface MemoryLedger extends LedgerView {
  fund(address: Uint8Array, units: bigint, energy?: bigint): void;
  /** Applies a transaction as accepted by `acceptingBlock` (carried in `blockHash`) and fires onAccepted. */
  accept(tx: AnyTransaction, blockHash: Uint8Array, acceptingBlock: Uint8Array, timestampMs: number): TransactionRecord;
}

export function createMemoryLedger(tipHash: () => Uint8Array): MemoryLedger {
  const accounts = new Map<string, Account>();
  const records = new Map<string, TransactionRecord>();
  const byAddress = new Map<string, TransactionRecord[]>();
  const listeners = new Set<(read: () => readonly TransactionRecord[]) => void>();
  const trie = createStateTrie({ store: createMemoryStore(), prefix: Uint8Array.of(0x10), overlay: new Map() });
  let root: Uint8Array = emptyStateRoot.slice();
  let issued = 0n;
  const get = (address: Uint8Array): Account => accounts.get(toHex(address)) ?? emptyAccount;
  const set = (address: Uint8Array, account: Account): void => {
    accounts.set(toHex(address), account);
    root = trie.applyUpdates(root, new Map([[toHex(blake3(address)), encodeAccount(account)]])).root;
  };
  const index = (address: Uint8Array, record: TransactionRecord): void => {
    const list = byAddress.get(toHex(address)) ?? [];
    list.unshift(record);
    byAddress.set(toHex(address), list);
  };
  return {
    account: get,
    getTransaction: (hash) => records.get(toHex(hash)),
    history(address, page) {
      const list = byAddress.get(toHex(address)) ?? [];
      return { total: list.length, items: list.slice(page.offset, page.offset + page.limit) };
    },
    proof(address) {
      const key = blake3(address);
      return { stateRoot: root, blockHash: tipHash(), key, proof: trie.prove(root, key) };
    },
    supply: () => ({ totalUnits: issued, circulatingUnits: issued }),
    counters: () => ({ totalTransactions: records.size, activeAddresses: accounts.size }),
    onAccepted(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    fund(address, units, energy = 0n) {
      const a = get(address);
      issued += units;
      set(address, { ...a, balance: a.balance + units, energy: a.energy + energy });
    },
    accept(accepted, blockHash, acceptingBlock, timestampMs) {
      const tx = accepted as Transaction;
      const from = get(tx.from);
      set(tx.from, { balance: from.balance - tx.amount - (tx.useEnergy ? 0n : tx.fee), nonce: from.nonce + 1n, energy: from.energy - (tx.useEnergy ? tx.fee : 0n) });
      const to = get(tx.to);
      set(tx.to, { ...to, balance: to.balance + tx.amount });
      const record: TransactionRecord = { hash: txHash(tx), tx, status: 'confirmed', blockHash, acceptingBlockHash: acceptingBlock, timestampMs, energyUsed: tx.useEnergy ? tx.fee : 0n };
      records.set(toHex(record.hash), record);
      index(tx.from, record);
      if (!equalBytes(tx.from, tx.to)) index(tx.to, record);
      for (const l of listeners) l(() => [record]);
      return record;
    },
  };
}

export interface MemoryMempool extends MempoolPort {
  remove(hash: Uint8Array): void;
}

export function createMemoryMempool(params: NetworkParams, ledger: LedgerView, nowMs: () => number): MemoryMempool {
  const pool = new Map<string, TransactionRecord>();
  const listeners = new Set<(record: TransactionRecord) => void>();
  const pendingFrom = (address: Uint8Array) => [...pool.values()].filter((r) => equalBytes((r.tx as Transaction).from, address));
  return {
    async submit(submitted) {
      const tx = submitted as Transaction;
      if (tx.chainId !== params.chainId) throw new TransactionRejectedError(`chain_id ${tx.chainId}, expected ${params.chainId}`);
      if (!verifyTransactionSignatures(tx, nobleVerifier)) throw new TransactionRejectedError('signature does not verify', { rule: 'signature' });
      const hash = txHash(tx);
      if (pool.has(toHex(hash))) throw new TransactionRejectedError('already in the mempool', { rule: 'duplicate' });
      const account = ledger.account(tx.from);
      const queued = pendingFrom(tx.from);
      const expectedNonce = account.nonce + BigInt(queued.length);
      if (tx.nonce !== expectedNonce) throw new TransactionRejectedError(`nonce ${tx.nonce}, expected ${expectedNonce}`, { rule: 'nonce' });
      const spent = queued.reduce((sum, r) => sum + balanceCost(kindOf(r.tx).spend(r.tx)), 0n);
      const needed = tx.amount + (tx.useEnergy ? 0n : tx.fee);
      if (account.balance - spent < needed) throw new InsufficientBalanceError(String(account.balance - spent), String(needed));
      const record: TransactionRecord = { hash, tx, status: 'pending', timestampMs: nowMs(), energyUsed: 0n };
      pool.set(toHex(hash), record);
      for (const l of listeners) l(record);
      return { hash, status: 'pending' };
    },
    get: (hash) => pool.get(toHex(hash)),
    pending: (address) => [...pool.values()].filter((r) => address === undefined || touches(r.tx, address)),
    size: () => pool.size,
    onAdmitted(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    remove(hash) {
      pool.delete(toHex(hash));
    },
  };
}

export interface MemoryWallet extends WalletPort {
  /** Adds a key and returns its address (tests fund it through the ledger). */
  addKey(privateKey?: Uint8Array): Uint8Array;
}

export function createMemoryWallet(params: NetworkParams, ledger: LedgerView, mempool: MempoolPort): MemoryWallet {
  const keys = new Map<string, Uint8Array>();
  const keyOf = (address: Uint8Array): Uint8Array => {
    const key = keys.get(toHex(address));
    if (key === undefined) throw new TransactionRejectedError('the wallet holds no key for this address', { rule: 'unknown_key' });
    return key;
  };
  const addKey = (privateKey = generatePrivateKey(random)): Uint8Array => {
    const address = standardAddress(publicKeyFromPrivate(privateKey));
    keys.set(toHex(address), privateKey);
    return address;
  };
  return {
    addKey,
    async createAddress(request) {
      if (request.addressType !== 'standard') throw new PrivacyError(`${request.addressType} addresses are not supported by this wallet`);
      const address = addKey();
      return { address, publicKey: address.subarray(1), walletName: request.walletName, addressType: 'standard', privacyLevel: request.privacyLevel };
    },
    async signMessage({ address, message, signatureType }) {
      const key = keyOf(address);
      if (signatureType === 'ring') throw new PrivacyError('ring signatures need the privacy module');
      const digest = messageDigest(message);
      const signature = signatureType === 'ecdsa' ? ecdsaSign(digest, key, random(32)) : schnorrSign(digest, key, random(32));
      return { signature, publicKey: publicKeyFromPrivate(key) };
    },
    verifyMessage({ address, message, signature, signatureType }) {
      const digest = messageDigest(message);
      const pub = address.subarray(1);
      return signatureType === 'ecdsa' ? ecdsaVerify(signature, digest, pub) : schnorrVerify(signature, digest, pub);
    },
    async buildTransfer({ from, to, amount, fee, useEnergy }) {
      const nonce = ledger.account(from).nonce + BigInt(mempool.pending(from).filter((r) => equalBytes((r.tx as Transaction).from, from)).length);
      const unsigned = { kind: TxKind.Transfer, chainId: params.chainId, from, to, amount, fee, nonce, useEnergy, memo: new Uint8Array(0) } as const;
      return signTransfer(unsigned, keyOf(from), random(32));
    },
  };
}
