/**
 * Line rate (issue 29): two `weft node` processes as shipped (bin/weft.mjs of `--checkout`, regtest, ports 0, temp
 * datadirs) on this box — node A mining with one thread, node B peered with it and validating — and pre-signed
 * transfers from thousands of funded senders offered to A through batched `send_raw_transaction` at stepped rates.
 *
 *   npx tsx bench/throughput.ts [--steps 100,200,500,1000,2000,4000,8000] [--seconds 60] [--senders 4096]
 *                               [--checkout DIR] [--pow paced|nice|full]
 *   quick: npx tsx bench/throughput.ts --steps 100,300 --seconds 20
 *
 * Per step: offered (sent), admitted (answered with a hash, over the time until the last answer) and confirmed tx/s
 * (confirmed = accepted by a chain block, from A's
 * confirmed_transactions topic, counted until the step ends — the last answer to its offers, then a drain until
 * 1.5× its seconds from its start — divided by the step's wall time, printed beside it), submit → confirmed p50/p95/max, A's block rate, CPU-µs per
 * confirmed transaction for each node (main thread, other threads; A's mining thread apart, in CPU-s), RSS, B's lag
 * behind A in blocks (worst sample of the step), the box's 1-minute load. Summary: the sustained rate, the highest
 * step whose confirmed rate is ≥ 95% of its offered rate with nothing of it left unconfirmed after the drain.
 *
 * The PoW, three ways. `--pow nice` (the default): A mines with one thread (`--mine --threads 1`); the PoW thread is
 * found as the thread of A, other than the main one, that burned the most CPU while A mined through the funding (the
 * Wasm mining worker), and reniced to 19, so it takes only the CPU the nodes leave (regtest's difficulty follows its
 * hash rate: on a loaded box blocks slow down, the starved miner bounding the rate). `--pow full` leaves that thread
 * at the nodes' priority. `--pow paced`: A runs without its miner, and the bench mines A's templates as the network
 * lab's miners do (bench/lab/miners.ts) — a block at Poisson times averaging one a second, on a template fetched with
 * get_block_template every 500 ms and once A took the last block, submitted with submit_block. Regtest's difficulty
 * then sits at the pow limit, so a nonce costs a couple of hashes and no core goes to hashing; A pays for the
 * templates and submitted blocks over JSON-RPC instead, as a node serving a pool does.
 *
 * Any error answer (an RPC error, a refused transaction, a node exiting) stops the bench with exit code 1 and the
 * answer. Encoding and signing come from this checkout; `--checkout` picks the nodes' code, so the landed code runs
 * from a git worktree with the same bench.
 */
import { spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { regtestParams } from '../src/consensus/params.ts';
import { encodeAddress } from '../src/crypto/address.ts';
import { labMinerKey, startMiners, type Miners } from './lab/miners.ts';
import { fanout, fee, transfer, wallet, walletOfKey, type Wallet } from './load-generator.ts';
import { blocksOf, cpuSince, fail, metricsOf, rpc, rssMb, sendRaw, startNode, stopNodes, threadCpu, watchConfirmations, type BenchNode, type CpuSplit } from './throughput-nodes.ts';

const args = new Map<string, string>();
for (let i = 2; i < process.argv.length; i += 2) args.set(process.argv[i]!.replace(/^--/, ''), process.argv[i + 1] ?? '');
const steps = (args.get('steps') ?? '100,200,500,1000,2000,4000,8000').split(',').map(Number);
const stepSeconds = Number(args.get('seconds') ?? 60);
const senderCount = Number(args.get('senders') ?? 4096);
const checkout = resolve(args.get('checkout') ?? '.');
const powModes: Record<string, string> = {
  paced: 'paced by the bench: a block at Poisson times averaging 1 s, mined on A\'s templates at the pow limit',
  nice: 'A\'s own PoW thread, reniced to 19',
  full: 'A\'s own PoW thread, at normal priority',
};
const powMode = args.get('pow') ?? 'nice';
if (!(powMode in powModes)) fail(`--pow ${powMode}: one of ${Object.keys(powModes).join(', ')}`);
const tickMs = 100;
const unitsPerCoin = 100_000_000n;

const text = (address: Uint8Array) => encodeAddress(regtestParams.hrp, address);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until(what: string, timeoutMs: number, condition: () => Promise<boolean> | boolean): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!(await condition())) {
    if (performance.now() > deadline) fail(`timed out waiting for ${what}`);
    await sleep(250);
  }
}
const quantile = (xs: readonly number[], q: number) => (xs.length === 0 ? NaN : [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!);
async function balanceUnits(node: BenchNode, address: Uint8Array): Promise<bigint> {
  const exact = String((await rpc(node, 'get_balance', { address: text(address), include_pending: false })).balance_exact);
  const [whole, frac = ''] = exact.split('.');
  return BigInt(whole!) * unitsPerCoin + BigInt(frac.padEnd(8, '0').slice(0, 8));
}

const confirmedAt = new Map<string, number>();

/** Funder (A's miner address) → up to 64 distributors → `senderCount` senders, each with `perSender` units. */
async function fund(a: BenchNode, funder: Wallet, senders: readonly Wallet[], perSender: bigint): Promise<void> {
  const distributors = Array.from({ length: Math.ceil(senders.length / fanout) }, (_, i) => wallet(1_000_000 + i));
  if (distributors.length > fanout) fail(`at most ${fanout * fanout} senders`);
  const perDistributor = BigInt(fanout) * (perSender + fee) + fee;
  const need = BigInt(distributors.length) * (perDistributor + fee);
  const began = performance.now();
  await until(`the funder's ${need} units (A mining)`, 600_000, async () => (await balanceUnits(a, funder.address)) >= need);
  const confirmedAll = (hashes: readonly string[]) => () => hashes.every((h) => confirmedAt.has(h));
  const first = await sendRaw(a, distributors.map((d) => transfer(funder, d.address, perDistributor)));
  await until('the distributors funded', 300_000, confirmedAll(first));
  const second = await sendRaw(a, senders.map((s, i) => transfer(distributors[Math.floor(i / fanout)]!, s.address, perSender)));
  await until('the senders funded', 300_000, confirmedAll(second));
  console.log(`funded ${senders.length} senders with ${perSender} units each through ${distributors.length} distributors in ${((performance.now() - began) / 1000).toFixed(0)} s`);
}

/** A's thread other than the main one that burned the most CPU since `before` (A mining through the funding). */
function findMiningThread(a: BenchNode, before: Map<number, number>, ms: number): { tid: number; share: number } {
  let best = { tid: 0, share: 0 };
  for (const [tid, us] of threadCpu(a.pid)) {
    const share = (us - (before.get(tid) ?? 0)) / (ms * 1000);
    if (tid !== a.pid && share > best.share) best = { tid, share };
  }
  return best;
}

interface StepResult {
  readonly offered: number; readonly admitted: number; readonly confirmed: number; readonly confirmedCount: number; readonly left: number; readonly seconds: number;
  readonly p50: number; readonly p95: number; readonly max: number; readonly blockRate: number;
  readonly cpuA: CpuSplit; readonly cpuB: CpuSplit; readonly rssA: number; readonly rssB: number; readonly lag: number; readonly load: number;
}

async function runStep(a: BenchNode, b: BenchNode, senders: Wallet[], rate: number, miningTid: number | undefined, sink: Uint8Array): Promise<StepResult> {
  const count = Math.round(rate * stepSeconds);
  const raws = Array.from({ length: count }, (_, k) => transfer(senders[k % senders.length]!, sink, 1n));
  const cpuA0 = threadCpu(a.pid);
  const cpuB0 = threadCpu(b.pid);
  const metrics0 = await Promise.all([metricsOf(a), metricsOf(b)]);
  const blocks0 = await blocksOf(a);
  const submitted: { hash: string; at: number }[] = [];
  const posts: Promise<void>[] = [];
  let lag = 0;
  const began = performance.now();
  let sent = 0;
  let nextLagAt = began;
  while (sent < count) {
    const now = performance.now();
    const due = Math.min(count, Math.floor((rate * (now - began)) / 1000));
    if (due > sent) {
      const slice = raws.slice(sent, due);
      sent = due;
      posts.push(sendRaw(a, slice).then((hashes) => { for (const hash of hashes) submitted.push({ hash, at: now }); }));
    }
    if (now >= nextLagAt) {
      nextLagAt = now + 1000;
      posts.push(Promise.all([blocksOf(a), blocksOf(b)]).then(([x, y]) => { lag = Math.max(lag, x - y); }));
    }
    await sleep(tickMs - ((performance.now() - began) % tickMs));
  }
  const offeringMs = performance.now() - began;
  await Promise.all(posts);
  const answeredMs = performance.now() - began;
  const drainEnd = began + stepSeconds * 1500;
  while (performance.now() < drainEnd && !submitted.every((s) => confirmedAt.has(s.hash))) await sleep(250);
  const endedAt = performance.now();
  const latencies = submitted.filter((s) => (confirmedAt.get(s.hash) ?? Infinity) <= endedAt).map((s) => (confirmedAt.get(s.hash)! - s.at) / 1000);
  const confirmed = latencies.length;
  const blocks = (await blocksOf(a)) - blocks0;
  const [x, y] = await Promise.all([blocksOf(a), blocksOf(b)]);
  const metrics1 = await Promise.all([metricsOf(a), metricsOf(b)]);
  const delta = (node: 0 | 1, name: string) => (metrics1[node].get(name) ?? 0) - (metrics0[node].get(name) ?? 0);
  const counters = (node: 0 | 1) =>
    `sig cache ${delta(node, 'weft_sig_cache_hits')} hits / ${delta(node, 'weft_sig_cache_misses')} misses; ` +
    `${delta(node, 'weft_template_build_seconds_count')} templates, ${(1000 * delta(node, 'weft_template_build_seconds_sum')).toFixed(0)} ms; ` +
    `block stages (ms) ${['preverify', 'body', 'header', 'acceptance', 'commit', 'total'].map((stage) => `${stage} ${(1000 * delta(node, `weft_block_stage_seconds_sum{stage="${stage}"}`)).toFixed(0)}`).join(', ')}`;
  console.log(`  A: ${counters(0)}\n  B: ${counters(1)}`);
  return {
    offered: count / (offeringMs / 1000), admitted: submitted.length / (answeredMs / 1000), confirmed: confirmed / ((endedAt - began) / 1000),
    confirmedCount: confirmed, left: count - confirmed, seconds: (endedAt - began) / 1000, p50: quantile(latencies, 0.5), p95: quantile(latencies, 0.95), max: quantile(latencies, 1),
    blockRate: blocks / ((endedAt - began) / 1000), cpuA: cpuSince(a.pid, cpuA0, miningTid), cpuB: cpuSince(b.pid, cpuB0),
    rssA: rssMb(a.pid), rssB: rssMb(b.pid), lag: Math.max(lag, x - y), load: loadavg()[0]!,
  };
}


/** `--pow paced`: the bench mines A's templates on the network's schedule; any error answer fails the bench. */
function paceBlocks(a: BenchNode): Miners {
  return startMiners([{ rpc: (method, params) => rpc(a, method, params) }], [{ node: 0, share: 1 }], { blockIntervalMs: 1000, templateRefreshMs: 500, random: Math.random });
}

/** `--pow nice|full`: A's PoW thread, the busiest but the main one while A mined through the funding; reniced for nice. */
function ownMiningThread(a: BenchNode, cpuAtStart: Map<number, number>, startedAt: number): number {
  const mining = findMiningThread(a, cpuAtStart, performance.now() - startedAt);
  if (mining.tid === 0) fail('no thread but the main one burned CPU on A');
  if (powMode === 'nice') {
    const renice = spawnSync('renice', ['-n', '19', '-p', String(mining.tid)], { encoding: 'utf8' });
    if (renice.status !== 0) fail('renice', renice.stderr);
  }
  console.log(`A's mining thread: tid ${mining.tid} (${(mining.share * 100).toFixed(0)}% of a core through the funding)`);
  return mining.tid;
}

async function main(): Promise<void> {
  // Paced, the bench's miner is paid to the lab's key for node 0; A's own miner to a key of the load generator.
  const funder = powMode === 'paced' ? walletOfKey(labMinerKey(0)) : wallet(9_999_999);
  const sink = wallet(9_999_998).address;
  const senders = Array.from({ length: senderCount }, (_, i) => wallet(i));
  const total = steps.reduce((n, r) => n + Math.round(r * stepSeconds), 0);
  const perSender = BigInt(Math.ceil(total / senderCount) + 1) * (fee + 1n);
  console.log(`bench/throughput: nodes from ${checkout}; steps ${steps.join(', ')} tx/s × ${stepSeconds} s; ${senderCount} senders; PoW ${powModes[powMode]}`);
  const a = await startNode(checkout, 'A', powMode === 'paced' ? [] : ['--mine', '--threads', '1', '--miner-address', text(funder.address)]);
  const b = await startNode(checkout, 'B', ['--addnode', `127.0.0.1:${a.p2p}`]);
  await watchConfirmations(a, (hash) => { if (!confirmedAt.has(hash)) confirmedAt.set(hash, performance.now()); });
  const cpuAtStart = threadCpu(a.pid);
  const startedAt = performance.now();
  const miners = powMode === 'paced' ? paceBlocks(a) : undefined;
  await fund(a, funder, senders, perSender);
  await until('B to catch up with A', 120_000, async () => (await blocksOf(b)) >= (await blocksOf(a)) - 2);
  const miningTid = miners === undefined ? ownMiningThread(a, cpuAtStart, startedAt) : undefined;
  console.log(`A at ${await blocksOf(a)} blocks`);

  console.log('offered | admitted | confirmed tx/s (step s) | left | submit→confirmed p50 / p95 / max s | blocks/s | A µs/tx main + other (mining CPU-s) | B µs/tx main + other | RSS A / B MB | B lag (blocks) | load');
  let sustained = 0;
  for (const rate of steps) {
    const r = await runStep(a, b, senders, rate, miningTid, sink);
    if (miners !== undefined && miners.errors.length > 0) fail('the paced miner', miners.errors);
    const perTx = (us: number) => (r.confirmedCount > 0 ? (us / r.confirmedCount).toFixed(0) : '—');
    console.log(
      `${r.offered.toFixed(0)} | ${r.admitted.toFixed(0)} | ${r.confirmed.toFixed(0)} (${r.seconds.toFixed(0)}) | ${r.left} | ${r.p50.toFixed(1)} / ${r.p95.toFixed(1)} / ${r.max.toFixed(1)} | ${r.blockRate.toFixed(2)} | ` +
      `${perTx(r.cpuA.main)} + ${perTx(r.cpuA.others)} (${(r.cpuA.mining / 1e6).toFixed(1)}) | ${perTx(r.cpuB.main)} + ${perTx(r.cpuB.others)} | ${r.rssA.toFixed(0)} / ${r.rssB.toFixed(0)} | ${r.lag} | ${r.load.toFixed(1)}`,
    );
    if (r.confirmed >= 0.95 * r.offered && r.left === 0) sustained = Math.max(sustained, r.offered);
  }
  console.log(`sustained: ${sustained.toFixed(0)} tx/s (highest step with confirmed ≥ 95% of offered and nothing left behind)`);
  await miners?.stop();
}

try {
  await main();
} finally {
  await stopNodes();
}
process.exit(0);
