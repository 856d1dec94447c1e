/**
 * Template selection benchmark (docs/performance.md "Template selection", docs/mempool.md "Candidates"): a node's
 * pool holding 10,000 and then 50,000 transfers from 5,000 funded senders on an LMDB-backed regtest ledger, wired
 * as the node wires it (server/node/mempool-service.ts). Measured, in the same process on the same pool:
 *   - landed: the selection of commit 5184f3e, kept here as the named baseline — for every sender in the pool, its
 *     account read from the virtual state (LMDB trie) and its agent record looked up, the executable run walked,
 *     then the fee-rate heap;
 *   - new, fresh: `selectForBlock` over the incremental candidate set after a change (no state read);
 *   - new, unchanged: the same request again with nothing changed (what the miner asks after each mining batch);
 *   - the pool's per-block upkeep (`blockApplied`: removals and the recheck of the senders a block can affect) for a
 * block carrying a full template.
 *
 *   npx tsx bench/template-build.ts [senders=5000] [rounds=5]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signSchnorr, xOnlyPointFromScalar } from 'tiny-secp256k1';
import type { Block } from '../src/codec/block.ts';
import type { Chain } from '../src/chain/chain.ts';
import { encodeTransaction, signingHash, type TransferTransaction } from '../src/kinds/transaction-codec.ts';
import { TxKind } from '../src/codec/transaction-kinds.ts';
import { regtestParams } from '../src/consensus/params.ts';
import { searchNonce } from '../src/consensus/pow.ts';
import { standardAddress } from '../src/crypto/address.ts';
import { decodeAgentRecord } from '../src/kinds/agent/agent-record.ts';
import { blockMassMax } from '../src/limits.ts';
import type { PoolEntry } from '../src/mempool/entry.ts';
import { createHeap } from '../src/mempool/heap.ts';
import type { SelectRequest } from '../src/mempool/select.ts';
import { executableRun } from '../src/mempool/sender-queue.ts';
import { blockTxBytes } from '../src/codec/block.ts';
import { buildBlockTemplate } from '../src/mining/template.ts';
import { openLedgerChain, type Ledger } from '../src/state/ledger.ts';
import { createManualClock } from '../src/util/clock.ts';
import { fastVerifier } from '../server/crypto/fast-verifier.ts';
import { createLogger } from '../server/logger.ts';
import { startNodeMempool } from '../server/node/mempool-service.ts';
import { openLmdbStore } from '../server/storage/lmdb-store.ts';
import { installWasmBlake3 } from '../server/crypto/wasm-blake3.ts';

// As the node runs (server/node/start/open-chain.ts): BLAKE3 on the Wasm kernel for ids, merkle roots and the state trie.
const hashBackend = await installWasmBlake3();
const senderCount = Number(process.argv[2] ?? 5_000);
const rounds = Number(process.argv[3] ?? 3);
const fundingUnits = 100_000n;

interface Wallet {
  readonly privateKey: Uint8Array;
  readonly address: Uint8Array;
}

function wallet(seed: number): Wallet {
  const privateKey = new Uint8Array(32);
  new DataView(privateKey.buffer).setUint32(28, seed + 1);
  return { privateKey, address: standardAddress(xOnlyPointFromScalar(privateKey)) };
}

function transfer(from: Wallet, to: Uint8Array, amount: bigint, fee: bigint, nonce: bigint): Uint8Array {
  const body = { kind: TxKind.Transfer, chainId: regtestParams.chainId, from: from.address, to, amount, fee, nonce, useEnergy: false, memo: new Uint8Array(0) } as const;
  const signed: TransferTransaction = { ...body, signature: signSchnorr(signingHash(body), from.privateKey, new Uint8Array(32)) };
  return encodeTransaction(signed);
}

function mineBlock(chain: Chain, miner: Uint8Array, transactions: readonly Uint8Array[]): Block {
  const template = buildBlockTemplate(chain, { miner, gpuMining: false, nowMs: chain.selectedTip().header.timestampMs + 1_000, transactions });
  const found = searchNonce(template.prePowHash, template.target, 0n, 1_000_000);
  if (found.nonce === null) throw new Error('no nonce');
  return { header: { ...template.header, nonce: found.nonce }, transactions: template.transactions };
}

/** The landed order (commit 5184f3e, src/mempool/entry.ts): exact bigint fee rates on every comparison. */
function landedCompareForBlock(a: PoolEntry, b: PoolEntry): number {
  const left = b.spend.fee * BigInt(a.mass);
  const right = a.spend.fee * BigInt(b.mass);
  return (left < right ? -1 : left > right ? 1 : 0) || a.seq - b.seq;
}

/** The landed selection (commit 5184f3e, src/mempool/select.ts): state read per sender at every template. */
function landedSelect(queues: ReadonlyMap<string, readonly PoolEntry[]>, ledger: Ledger, request: SelectRequest) {
  const agentPool = (payer: Uint8Array) => {
    const value = ledger.getRecord('agent', payer);
    return value === undefined ? undefined : decodeAgentRecord(value).energyPool;
  };
  interface Head {
    readonly run: readonly PoolEntry[];
    at: number;
  }
  const heads = createHeap<Head>((a, b) => landedCompareForBlock(a.run[a.at]!, b.run[b.at]!) < 0);
  for (const queue of queues.values()) {
    if (queue.length === 0) continue;
    const payer = queue[0]!.spend.payer;
    const run = executableRun(queue, ledger.account(payer), agentPool(payer));
    if (run.length > 0) heads.push({ run, at: 0 });
  }
  const transactions: PoolEntry[] = [];
  const maxMass = request.maxMass ?? blockMassMax;
  let bytes = 0;
  let mass = 0;
  while (transactions.length < request.maxCount) {
    const head = heads.pop();
    if (head === undefined) break;
    const entry = head.run[head.at]!;
    const footprint = blockTxBytes(entry.size);
    if (bytes + footprint > request.maxBytes || mass + entry.mass > maxMass) continue;
    transactions.push(entry);
    bytes += footprint;
    mass += entry.mass;
    head.at += 1;
    if (head.at < head.run.length) heads.push(head);
  }
  return transactions;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (x: number) => `${x.toFixed(2)} ms`;

/** Wall and CPU (user + system, this process) milliseconds: on a shared box the CPU time is the steadier figure. */
function timed<T>(f: () => T): { value: T; ms: number; cpuMs: number } {
  const cpu = process.cpuUsage();
  const t = performance.now();
  const value = f();
  const used = process.cpuUsage(cpu);
  return { value, ms: performance.now() - t, cpuMs: (used.user + used.system) / 1000 };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'weft-template-build-'));
  const store = openLmdbStore(dir);
  const clock = createManualClock(regtestParams.genesis.timestampMs + 10 ** 12);
  const { chain, ledger } = await openLedgerChain({ params: regtestParams, store, clock, verifier: fastVerifier });
  const node = startNodeMempool({ params: regtestParams, chain, ledger, store, clock, logger: createLogger('silent') });
  const pool = node.pool;
  const miner = wallet(1_000_000);
  const senders = Array.from({ length: senderCount }, (_, i) => wallet(i));
  const add = async (txs: readonly Uint8Array[]) => {
    const result = await chain.addBlock(mineBlock(chain, miner.address, txs));
    if (result.status !== 'accepted') throw new Error(result.status);
    await chain.settled();
  };
  const setupStart = performance.now();
  for (let i = 0; i < Number((BigInt(senderCount) * fundingUnits) / 8_000_000n) + 3; i++) await add([]);
  for (let start = 0; start < senderCount; start += 5_000) {
    await add(senders.slice(start, start + 5_000).map((w, j) => transfer(miner, w.address, fundingUnits, 200n, BigInt(start + j))));
  }
  await add([]);
  await add([]);
  console.log(`setup: ${senderCount} senders funded, ${chain.blockCount()} blocks, ${((performance.now() - setupStart) / 1000).toFixed(1)} s; blake3 ${hashBackend}`);

  const request = { maxBytes: 1_000_000 - 200, maxCount: 1_000_000, maxMass: blockMassMax };
  let admitted = 0;
  for (const target of [10_000, 50_000]) {
    const perSender = target / senderCount;
    const txs: Uint8Array[] = [];
    for (let n = admitted / senderCount; n < perSender; n++) {
      senders.forEach((w, i) => txs.push(transfer(w, miner.address, 1n, 170n + BigInt((i * 7919 + n * 31) % 5_000), BigInt(n))));
    }
    for (let at = 0; at < txs.length; at += 10_000) {
      const results = await pool.addBatch(txs.slice(at, at + 10_000));
      const refused = results.find((r) => !r.ok);
      if (refused !== undefined && !refused.ok) throw new Error(`admission refused: ${refused.error.message}`);
    }
    admitted = target;
    const queues = new Map<string, PoolEntry[]>();
    for (const entry of pool.pending().sort((a, b) => (a.spend.nonce < b.spend.nonce ? -1 : 1))) {
      const queue = queues.get(entry.sender) ?? [];
      queue.push(entry);
      queues.set(entry.sender, queue);
    }
    const landed: number[] = [];
    const fresh: number[] = [];
    const unchanged: number[] = [];
    const landedCpu: number[] = [];
    const freshCpu: number[] = [];
    let check = 0;
    for (let round = 0; round < rounds; round++) {
      const l = timed(() => landedSelect(queues, ledger, request));
      landed.push(l.ms);
      landedCpu.push(l.cpuMs);
      // A different count each round: a fresh computation over the candidate set, never the cached answer.
      const f = timed(() => pool.selectForBlock({ ...request, maxCount: request.maxCount + round }));
      fresh.push(f.ms);
      freshCpu.push(f.cpuMs);
      const u = timed(() => pool.selectForBlock({ ...request, maxCount: request.maxCount + round }));
      unchanged.push(u.ms);
      if (f.value.transactions.length !== l.value.length || f.value.transactions.some((e, i) => e !== l.value[i])) throw new Error('the two selections differ');
      check = f.value.transactions.length;
    }
    console.log(
      `pool ${pool.size} transfers from ${queues.size} senders, template ${check} transactions (medians of ${rounds}, wall / CPU):\n` +
        `  landed ${ms(median(landed))} / ${ms(median(landedCpu))} · new, after a change ${ms(median(fresh))} / ${ms(median(freshCpu))} · new, unchanged ${ms(median(unchanged))}` +
        ` — landed/new ${(median(landedCpu) / median(freshCpu)).toFixed(1)}× by CPU`,
    );
  }

  // Per-block upkeep: a block carrying a full template, and the block that accepts it.
  const carried = pool.selectForBlock(request).transactions.map((e) => e.bytes);
  const original = pool.blockApplied.bind(pool);
  const upkeep: { ms: number; cpuMs: number }[] = [];
  const virtualState: { ms: number; cpuMs: number }[] = [];
  pool.blockApplied = (update) => {
    // The ledger computes the new virtual state lazily, on its first read: timed apart (the landed pool paid it at
    // the next template instead).
    virtualState.push(timed(() => ledger.virtual()));
    const t = timed(() => original(update));
    upkeep.push(t);
    return t.value;
  };
  await add(carried);
  await add([]);
  const [carrier, accepting] = upkeep as [{ ms: number; cpuMs: number }, { ms: number; cpuMs: number }];
  console.log(
    `per-block upkeep (blockApplied, wall / CPU): the block carrying ${carried.length} transfers ${ms(carrier.ms)} / ${ms(carrier.cpuMs)}, ` +
      `the block accepting them ${ms(accepting.ms)} / ${ms(accepting.cpuMs)}; pool now ${pool.size}, candidates ${pool.candidateCount}\n` +
      `  (before each, the ledger's new virtual state: ${virtualState.map((v) => `${ms(v.ms)} / ${ms(v.cpuMs)}`).join(', ')})`,
  );
  await node.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}

await main();
