// Fixtures for ledger tests: deterministic wallets, signed transfers, and a chain on regtest (genesis at the pow
// limit) whose blocks carry state, with a helper that mines one block and returns its id.
import type { Chain } from '../../src/chain/chain.ts';
import { encodeTransaction, signTransfer } from '../../src/kinds/transaction-codec.ts';
import { TxKind } from '../../src/codec/transaction-kinds.ts';
import { blockHash } from '../../src/consensus/pow.ts';
import { regtestParams, type NetworkParams } from '../../src/consensus/params.ts';
import { standardAddress } from '../../src/crypto/address.ts';
import { publicKeyFromPrivate } from '../../src/crypto/keys.ts';
import type { SignatureVerifier } from '../../src/crypto/verifier.ts';
import { openLedgerChain, type Ledger } from '../../src/state/ledger.ts';
import type { KvStore } from '../../src/storage/kv.ts';
import { createMemoryStore } from '../../src/storage/memory-store.ts';
import { toHex } from '../../src/util/bytes.ts';
import { createManualClock } from '../../src/util/clock.ts';
import { makeBlock, type MakeBlockOptions } from './chain-fixtures.ts';

export interface Wallet {
  readonly privateKey: Uint8Array;
  readonly address: Uint8Array;
}

export function wallet(seed: number): Wallet {
  const privateKey = new Uint8Array(32);
  new DataView(privateKey.buffer).setUint32(28, seed + 1);
  return { privateKey, address: standardAddress(publicKeyFromPrivate(privateKey)) };
}

export interface TransferOptions {
  readonly fee?: bigint;
  readonly useEnergy?: boolean;
  readonly memo?: Uint8Array;
  readonly chainId?: number;
}

export function transfer(from: Wallet, to: Uint8Array, amount: bigint, nonce: bigint, options: TransferOptions = {}): Uint8Array {
  const tx = signTransfer(
    {
      kind: TxKind.Transfer,
      chainId: options.chainId ?? regtestParams.chainId,
      from: from.address,
      to,
      amount,
      fee: options.fee ?? 1_000n,
      nonce,
      useEnergy: options.useEnergy ?? false,
      memo: options.memo ?? new Uint8Array(0),
    },
    from.privateKey,
    new Uint8Array(32),
  );
  return encodeTransaction(tx);
}

export interface LedgerFixture {
  readonly chain: Chain;
  readonly ledger: Ledger;
  readonly store: KvStore;
  /** Mines one block (default parents: every tip) and returns its id. */
  mine(options?: MakeBlockOptions): Promise<string>;
}

export async function ledgerChain(
  options: { params?: NetworkParams; store?: KvStore; verifier?: SignatureVerifier } = {},
): Promise<LedgerFixture> {
  const params = options.params ?? regtestParams;
  const store = options.store ?? createMemoryStore();
  const clock = createManualClock(params.genesis.timestampMs + 1_000_000_000);
  const { chain, ledger } = await openLedgerChain({ params, store, clock, ...(options.verifier ? { verifier: options.verifier } : {}) });
  return {
    chain,
    ledger,
    store,
    async mine(blockOptions = {}) {
      const block = makeBlock(chain, blockOptions);
      const result = await chain.addBlock(block);
      if (result.status !== 'accepted') throw new Error(`block not accepted: ${result.status}`);
      return toHex(blockHash(block.header));
    },
  };
}
