/**
 * Block application benchmark (docs/state.md "Measured"): a block of 5,000 transfers among 10,000 funded accounts
 * on regtest, applied the way a full node applies it — validation of the carrying block (decode, merkle root, every
 * signature through the fast verifier: libsecp256k1 Wasm, server/crypto/fast-verifier.ts) and then acceptance of
 * those transfers by the child that merges them (nonces, balances, energy, rewards, the state-root update, the
 * acceptance and index rows, the LMDB commit). Acceptance counts the state the merging block commits to, computed
 * once by the chain however it is asked: here the merger's template computes it (the virtual's state), and the
 * merger's own processing then finds it ready, as a peer's chain does when its mempool or miner read the virtual
 * first. Baseline, same run: the bare state-trie update of exactly the account changes that acceptance produced (same
 * parent root, same keys and values), nothing else.
 *
 *   npx tsx bench/block-apply.ts [transfers=5000] [rounds=3]
 *
 * Each round applies fresh blocks (nonces advance), four of them, with the node's verifiers
 * (server/crypto/node-verifier.ts) switched per block:
 * - main-thread: the landed path — every signature on the main thread through libsecp256k1, no cache;
 * - unseen: signatures never seen, verified on the block verify pool before the stages (cache misses);
 * - admitted: the mempool's pool verified them first (untimed, as admission does), so the stages hit the cache;
 * - worst-unseen: a block full to the bytes and mass rules (plain transfers) of signatures never seen, pool path;
 * - worst-v4: the same, full to rules v4's mass (a fixed mass per transaction, src/kinds/mass.ts): the most plain
 *   transfers a block holds once v4 applies, run back to back after the others. Validation costs the same on either
 *   side of the activation (only the mass rule's answer differs), so it is measured on this regtest chain.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Block } from '../src/codec/block.ts';
import { encodeTransaction, signingHash, type TransferTransaction } from '../src/kinds/transaction-codec.ts';
import { TxKind } from '../src/codec/transaction-kinds.ts';
import type { Chain } from '../src/chain/chain.ts';
import type { BlockTimings } from '../src/chain/chain-types.ts';
import { regtestParams } from '../src/consensus/params.ts';
import { searchNonce } from '../src/consensus/pow.ts';
import { standardAddress } from '../src/crypto/address.ts';
import { decodeTransaction } from '../src/kinds/transaction-codec.ts';
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
import { createNodeBlockVerifiers } from '../server/crypto/node-verifier.ts';
import { createVerifyPool, nodeSigCache } from '../server/crypto/verify-pool.ts';
import { createBodyPreverifier } from '../src/chain/preverify-body.ts';
import { blockEncodedBytes, blockTxBytes } from '../src/codec/block.ts';
import { witnessVerifierOver, type WitnessCheck } from '../src/crypto/witness-check.ts';
import { kindOf } from '../src/kinds/registry.ts';
import { massOf } from '../src/kinds/mass.ts';
import { blockBytesMax, blockMassMax, blockTxCountMax } from '../src/limits.ts';
import { openLmdbStore } from '../server/storage/lmdb-store.ts';
import { installWasmBlake3 } from '../server/crypto/wasm-blake3.ts';

// As the node runs (server/node/start/open-chain.ts): BLAKE3 on the Wasm kernel for ids, merkle roots and the state trie.
const hashBackend = await installWasmBlake3();
const transfers = Number(process.argv[2] ?? 5_000);
const rounds = Number(process.argv[3] ?? 3);
type Mode = 'main-thread' | 'unseen' | 'admitted' | 'worst-unseen' | 'worst-v4';
const modes: readonly Mode[] = ['main-thread', 'unseen', 'admitted', 'worst-unseen', 'worst-v4'];
const worstModes: readonly Mode[] = ['worst-unseen', 'worst-v4'];
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

interface Phases {
  readonly validate: number[];
  readonly state: number[];
  readonly merge: number[];
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'weft-block-apply-'));
  const store = openLmdbStore(dir);
  const clock = createManualClock(regtestParams.genesis.timestampMs + 10 ** 12);
  // The node's verifiers, and the landed main-thread one, switched per measured block.
  const blockVerifiers = createNodeBlockVerifiers(regtestParams);
  const admissionPool = createVerifyPool({ cache: nodeSigCache });
  const admissionPreverify = createBodyPreverifier(regtestParams, admissionPool);
  const plain = witnessVerifierOver(fastVerifier);
  const verifying: { mode: Mode } = { mode: 'main-thread' };
  const worstStages = new Map<Mode, BlockTimings[]>(worstModes.map((m) => [m, []]));
  const { chain, ledger } = await openLedgerChain({
    params: regtestParams, store, clock,
    onBlockTimings: (timings: BlockTimings) => {
      if (worstModes.includes(verifying.mode) && timings.transactions > 0) worstStages.get(verifying.mode)!.push(timings);
    },
    verifier: { name: 'switched', verifyWitnesses: (checks: readonly WitnessCheck[]) => (verifying.mode === 'main-thread' ? plain : blockVerifiers.verifier).verifyWitnesses(checks) },
    preverify: (block) => (verifying.mode === 'main-thread' ? Promise.resolve() : blockVerifiers.preverify(block)),
  });
  await Promise.all([blockVerifiers.pool.ready(), admissionPool.ready()]);
  const miner = wallet(1_000_000);
  // The most plain transfers one block holds: the bytes rule or the mass rule, whichever binds first.
  const sample = transfer(miner, miner.address, 1n, 1n, 0n);
  const sampleMass = massOf(kindOf(decodeTransaction(sample)).mass(decodeTransaction(sample), sample.length));
  const emptyBlockBytes = blockEncodedBytes(mineBlock(chain, miner.address, []));
  const byBytes = Math.floor((blockBytesMax - emptyBlockBytes) / blockTxBytes(sample.length));
  const byMass = Math.floor(blockMassMax / sampleMass);
  const worstTransfers = Math.min(byBytes, byMass, blockTxCountMax);
  const worstBy = worstTransfers === byBytes ? `the bytes rule: ${blockBytesMax} bytes` : worstTransfers === byMass ? `the mass rule: ${blockMassMax}` : 'the count rule';
  const v4Rules = { rulesV3: true, rulesV4: true };
  const sampleMassV4 = massOf(kindOf(decodeTransaction(sample)).mass(decodeTransaction(sample), sample.length, v4Rules), v4Rules);
  const worstTransfersV4 = Math.min(byBytes, Math.floor(blockMassMax / sampleMassV4), blockTxCountMax);
  const senders = Math.max(transfers, worstTransfers);
  const accounts = 2 * senders;
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
  console.log(`setup: ${accounts} accounts funded (${funded} at ${fundingUnits} units) in ${((performance.now() - setupStart) / 1000).toFixed(1)} s; ${chain.blockCount()} blocks; blake3 ${hashBackend}, signatures ${fastVerifier.name}`);

  const trie = createStateTrie({ store, prefix: Uint8Array.of(ledgerTables.trie) });
  const results = new Map<Mode, Phases>(modes.map((m) => [m, { validate: [], state: [], merge: [] }]));
  const baselineMs: number[] = [];
  const nonces = new Array<bigint>(senders).fill(0n);
  /** One carrier of `count` transfers (each sender's next nonce) validated under `mode`, then merged. */
  const applyBlock = async (mode: Mode, count: number, round: number): Promise<void> => {
    const txs = wallets.slice(0, count).map((w, i) => transfer(w, wallets[senders + ((i + round) % senders)]!.address, 1n, 1n, nonces[i]!++));
    const carrier = mineBlock(chain, miner.address, txs);
    verifying.mode = mode;
    // Admission first, untimed: the mempool's worker pool verifies every signature into the process's cache.
    if (mode === 'admitted') await admissionPreverify(carrier);
    let t = performance.now();
    await chain.addBlock(carrier);
    results.get(mode)!.validate.push(performance.now() - t);
    // The merger's state (the carrier's transfers accepted, the state root) is computed here, in its template.
    t = performance.now();
    const merger = mineBlock(chain, miner.address, []);
    results.get(mode)!.state.push(performance.now() - t);
    t = performance.now();
    await chain.addBlock(merger);
    results.get(mode)!.merge.push(performance.now() - t);
    const accepted = ledger.acceptanceOf(chain.selectedTip().id)!.merged.flatMap((m) => m.accepted).filter(Boolean).length;
    if (accepted !== count) throw new Error(`${mode} round ${round}: ${accepted} of ${count} transfers accepted`);
    if (mode === 'main-thread') baselineMs.push(bareTrieUpdateMs(txs));
  };
  // Baseline: the same account changes as one bare trie batch on the same parent root (not written).
  const bareTrieUpdateMs = (txs: readonly Uint8Array[]): number => {
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
    const t = performance.now();
    trie.applyUpdates(sp.header.stateRoot, updates);
    return performance.now() - t;
  };
  for (let round = 0; round < rounds; round++) {
    for (const mode of ['main-thread', 'unseen', 'admitted'] as const) await applyBlock(mode, transfers, round);
    await applyBlock('worst-unseen', worstTransfers, round);
  }
  // Under rules v4 every block is at most this size, so its blocks run back to back: the commit each one waits behind
  // (the store's previous sync) is of a block like it, not of the 6,096-transfer block above. The first warms up.
  for (let round = 0; round <= rounds; round++) await applyBlock('worst-v4', worstTransfersV4, rounds + round);
  const warmUp = results.get('worst-v4')!;
  for (const phase of [warmUp.validate, warmUp.state, warmUp.merge]) phase.shift();
  worstStages.get('worst-v4')!.shift();
  const fmt = (xs: number[]) => `median ${median(xs).toFixed(1)} ms (${xs.map((x) => x.toFixed(0)).join(', ')})`;
  /** Per round: the merger's state (template) plus its processing and commit. */
  const acceptOf = (r: Phases): number[] => r.state.map((x, i) => x + r.merge[i]!);
  const acceptLine = (r: Phases) => `accept ${fmt(acceptOf(r))} = state ${fmt(r.state)} + merger processed and committed ${fmt(r.merge)}`;
  const main = results.get('main-thread')!;
  const v = median(main.validate);
  const a = median(acceptOf(main));
  const b = median(baselineMs);
  console.log(`validate carrier, landed path (decode + merkle + ${transfers} signatures on the main thread, no cache + rows): ${fmt(main.validate)}`);
  console.log(`accept in merger (nonces, balances, rewards, state root, index rows, LMDB commit): ${acceptLine(main)}`);
  console.log(`apply total: ${(v + a).toFixed(1)} ms per block, ${(((v + a) * 1000) / transfers).toFixed(1)} µs per transaction`);
  console.log(`baseline: bare state-trie update of the same ${transfers} transfers' account changes: median ${b.toFixed(1)} ms → apply/baseline ratio ${((v + a) / b).toFixed(2)}, accept/baseline ${(a / b).toFixed(2)}`);
  for (const [mode, what] of [['unseen', `${transfers} signatures never seen: verified on the ${blockVerifiers.pool.workers}-worker pool before the stages`], ['admitted', `${transfers} signatures admission verified: cache hits`]] as const) {
    const r = results.get(mode)!;
    console.log(`validate carrier, ${what}: ${fmt(r.validate)}; validated + accepted ${(median(r.validate) + median(acceptOf(r))).toFixed(1)} ms (${(v / median(r.validate)).toFixed(2)}× faster validation than the landed path)`);
  }
  const worstLabel: Record<string, string> = {
    'worst-unseen': `worst case: a full block (${worstTransfers} transfers, ${worstBy})`,
    'worst-v4': `worst case under rules v4: a full block (${worstTransfersV4} transfers of ${sampleMassV4} mass, the mass rule: ${blockMassMax})`,
  };
  for (const mode of worstModes) {
    const worst = results.get(mode)!;
    console.log(`${worstLabel[mode]} of signatures never seen, pool path: validate ${fmt(worst.validate)}, ${acceptLine(worst)}; validated + accepted ${(median(worst.validate) + median(acceptOf(worst))).toFixed(1)} ms`);
    const stage = (pick: (t: BlockTimings) => number) => median(worstStages.get(mode)!.map(pick)).toFixed(0);
    console.log(`  its carrier's stages (median ms): preverify ${stage((t) => t.preverifyMs)}, body ${stage((t) => t.bodyMs)}, header ${stage((t) => t.headerMs)}, acceptance ${stage((t) => t.acceptanceMs)}, commit ${stage((t) => t.commitMs)}`);
  }
  console.log(`sig cache: ${JSON.stringify(nodeSigCache.stats())}`);
  await blockVerifiers.close();
  await admissionPool.close();
  await chain.settled();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}

await main();
