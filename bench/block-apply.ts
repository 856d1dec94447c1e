/**
 * Block application benchmark (docs/state.md "Measured"): a block of 5,000 transfers among 10,000 funded accounts
 * on regtest, applied the way a full node applies it — validation of the carrying block (decode, merkle root, every
 * signature through the fast verifier: libsecp256k1 Wasm, server/crypto/fast-verifier.ts) and then acceptance of
 * those transfers by the child that merges them (nonces, balances, energy, rewards, the state-root update, the
 * acceptance and index rows, the LMDB commit). Baseline, same run: the bare state-trie update of exactly the
 * account changes that acceptance produced (same parent root, same keys and values), nothing else.
 *
 *   npx tsx bench/block-apply.ts [transfers=5000] [rounds=3]
 *
 * Each round applies a fresh 5,000-transfer block (nonces advance), so no cache is warm for the measured block.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Block } from '../src/codec/block.ts';
import { encodeTransaction, signingHash, type TransferTransaction } from '../src/codec/transaction.ts';
import { TxKind } from '../src/codec/transaction-kinds.ts';
import type { Chain } from '../src/chain/chain.ts';
import { regtestParams } from '../src/consensus/params.ts';
import { searchNonce } from '../src/consensus/pow.ts';
import { standardAddress } from '../src/crypto/address.ts';
import { decodeTransaction } from '../src/codec/transaction.ts';
import { signSchnorr, xOnlyPointFromScalar } from 'tiny-secp256k1';
import { buildBlockTemplate } from '../src/mining/template.ts';
import { acceptMergeset } from '../src/state/acceptance.ts';
import { accountKey, decodeAccount, encodeAccount, isEmptyAccount } from '../src/state/account-codec.ts';
import { openLedgerChain } from '../src/state/ledger.ts';
import { ledgerTables } from '../src/state/ledger-rows.ts';
import { createStateTrie } from '../src/state/trie.ts';
import { toHex } from '../src/util/bytes.ts';
import { createManualClock } from '../src/util/clock.ts';
import { fastVerifier } from '../server/crypto/fast-verifier.ts';
import { openLmdbStore } from '../server/storage/lmdb-store.ts';

const transfers = Number(process.argv[2] ?? 5_000);
const rounds = Number(process.argv[3] ?? 3);
const accounts = 2 * transfers;
const fundingUnits = 10_000n;

interface Wallet {
  readonly privateKey: Uint8Array;
  readonly address: Uint8Array;
}

// Setup signs ~25,000 transfers: it uses libsecp256k1 (tiny-secp256k1) for keys and BIP340 signatures, which give
// the same bytes as the @noble reference (BIP340 is deterministic for given aux randomness) several times faster.
function wallet(seed: number): Wallet {
  const privateKey = new Uint8Array(32);
  new DataView(privateKey.buffer).setUint32(28, seed + 1);
  return { privateKey, address: standardAddress(xOnlyPointFromScalar(privateKey)) };
}

const zeroAux = new Uint8Array(32);

function transfer(from: Wallet, to: Uint8Array, amount: bigint, fee: bigint, nonce: bigint): Uint8Array {
  const body = { kind: TxKind.Transfer, chainId: regtestParams.chainId, from: from.address, to, amount, fee, nonce, useEnergy: false, memo: new Uint8Array(0) } as const;
  const signed: TransferTransaction = { ...body, signature: signSchnorr(signingHash(body), from.privateKey, zeroAux) };
  return encodeTransaction(signed);
}

function mineBlock(chain: Chain, miner: Uint8Array, transactions: readonly Uint8Array[]): Block {
  const tipTime = chain.selectedTip().header.timestampMs;
  const template = buildBlockTemplate(chain, { miner, gpuMining: false, nowMs: tipTime + 1_000, transactions });
  const found = searchNonce(template.prePowHash, template.target, 0n, 1_000_000);
  if (found.nonce === null) throw new Error('no nonce');
  return { header: { ...template.header, nonce: found.nonce }, transactions: template.transactions };
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'weft-block-apply-'));
  const store = openLmdbStore(dir);
  const clock = createManualClock(regtestParams.genesis.timestampMs + 10 ** 12);
  const { chain, ledger } = await openLedgerChain({ params: regtestParams, store, clock, verifier: fastVerifier });
  const miner = wallet(1_000_000);
  const setupStart = performance.now();
  const wallets = Array.from({ length: accounts }, (_, i) => wallet(i));
  const add = async (txs: readonly Uint8Array[], by = miner.address) => {
    const result = await chain.addBlock(mineBlock(chain, by, txs));
    if (result.status !== 'accepted') throw new Error(result.status);
  };
  const blocksForFunding = Number((BigInt(accounts) * fundingUnits) / 8_000_000n) + 3;
  for (let i = 0; i < blocksForFunding; i++) await add([]);
  for (let start = 0; start < accounts; start += transfers) {
    await add(wallets.slice(start, start + transfers).map((w, j) => transfer(miner, w.address, fundingUnits, 0n, BigInt(start + j))));
  }
  await add([]); // merges the last funding block
  await add([]);
  const funded = wallets.filter((w) => ledger.account(w.address).balance === fundingUnits).length;
  console.log(`setup: ${accounts} accounts funded (${funded} at ${fundingUnits} units) in ${((performance.now() - setupStart) / 1000).toFixed(1)} s; ${chain.blockCount()} blocks`);

  const trie = createStateTrie({ store, prefix: Uint8Array.of(ledgerTables.trie) });
  const validateMs: number[] = [];
  const acceptMs: number[] = [];
  const baselineMs: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const txs = wallets.slice(0, transfers).map((w, i) => transfer(w, wallets[transfers + ((i + round) % transfers)]!.address, 1n, 1n, BigInt(round)));
    const carrier = mineBlock(chain, miner.address, txs);
    let t = performance.now();
    await chain.addBlock(carrier);
    validateMs.push(performance.now() - t);
    const merger = mineBlock(chain, miner.address, []);
    t = performance.now();
    await chain.addBlock(merger);
    acceptMs.push(performance.now() - t);
    // Baseline: the same account changes as one bare trie batch on the same parent root (not written).
    const sp = chain.get(chain.selectedTip().selectedParent!.id)!;
    const read = (address: Uint8Array) => {
      const v = trie.get(sp.header.stateRoot, accountKey(address));
      return v === undefined ? undefined : decodeAccount(v);
    };
    const result = acceptMergeset({
      read,
      merged: [{ id: sp.id, miner: sp.header.miner, daaScore: sp.header.daaScore, blue: true, transactions: txs.map((bytes) => ({ tx: decodeTransaction(bytes) })) }],
      mergingMiner: miner.address,
      daaScore: chain.selectedTip().header.daaScore,
      emittedBefore: 0n,
    });
    const updates = new Map<string, Uint8Array | null>();
    for (const { address, account } of result.changes.values()) updates.set(toHex(accountKey(address)), isEmptyAccount(account) ? null : encodeAccount(account));
    t = performance.now();
    trie.applyUpdates(sp.header.stateRoot, updates);
    baselineMs.push(performance.now() - t);
    const accepted = ledger.acceptanceOf(chain.selectedTip().id)!.merged.flatMap((m) => m.accepted).filter(Boolean).length;
    if (accepted !== transfers) throw new Error(`round ${round}: ${accepted} of ${transfers} transfers accepted`);
  }
  const v = median(validateMs);
  const a = median(acceptMs);
  const b = median(baselineMs);
  console.log(`validate carrier (decode + merkle + ${transfers} fast-verifier signatures + rows): median ${v.toFixed(1)} ms (${validateMs.map((x) => x.toFixed(0)).join(', ')})`);
  console.log(`accept in merger (nonces, balances, rewards, state root, index rows, LMDB commit): median ${a.toFixed(1)} ms (${acceptMs.map((x) => x.toFixed(0)).join(', ')})`);
  console.log(`apply total: ${(v + a).toFixed(1)} ms per block, ${(((v + a) * 1000) / transfers).toFixed(1)} µs per transaction`);
  console.log(`baseline: bare state-trie update of the same ${transfers} transfers' account changes: median ${b.toFixed(1)} ms → apply/baseline ratio ${((v + a) / b).toFixed(2)}, accept/baseline ${(a / b).toFixed(2)}`);
  await chain.settled();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}

await main();
