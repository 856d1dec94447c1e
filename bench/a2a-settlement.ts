/**
 * The cost of on-chain settlement at the A2A endpoint (issue 15), on a real `weft node` child process (regtest, its
 * own event loop and LMDB, settlement configured with --agent-account and a claim session key in its wallet):
 *
 *   1. SendMessage latency with `metadata.chainSettlement` (the escrow read from the node's own committed state and
 *      checked, src/a2a/settlement.ts) against the same SendMessage without it. The two modes alternate, in an order
 *      that flips each pair, and the node is let go quiet after each request: the bench waits until the task is done
 *      and, for a settled one, until the follower has submitted its claim, so neither the task's run nor the claim's
 *      signing and mempool admission falls inside the next measured request. Claims are mined (two blocks) every
 *      `pairsPerBlock` pairs, between requests, so the agent stays under the mempool's 64 pending transactions per
 *      address. p50 and p99 of each mode and the difference (target: the check adds < 2 ms at p50).
 *   2. From SendMessage to the node's confirmed claim (the task anchor's `claim.status: confirmed`) at devnet's
 *      cadence: a block every 1,000 ms (devnet's targetBlockTimeMs) from get_block_template, ground and submitted
 *      like a miner does, independent of the requests. Blocks and wall time per sample (target: within 3 blocks).
 *
 * Any error answer, any task that does not complete, any claim refused exits 1 with the answer.
 *
 * Run: npx tsx bench/a2a-settlement.ts [pairs = 100] [samples = 5]   (~35 s; figures: docs/performance.md "A2A settlement (issue 15)")
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { encodeTransaction } from '../src/kinds/transaction-codec.ts';
import { devnetParams, regtestParams } from '../src/consensus/params.ts';
import { encodeAddress } from '../src/crypto/address.ts';
import { escrowCreateKind } from '../src/kinds/escrow/escrow-create.ts';
import { escrowIdOf } from '../src/kinds/escrow/escrow-record.ts';
import { fromHex, toHex } from '../src/util/bytes.ts';
import { claimingAgentTransactions, client, owner, signed } from '../test/helpers/agent-fixtures.ts';
import { solvedBlock, startBenchNode } from './rpc-node-process.ts';

const pairs = Number(process.argv[2] ?? 100);
const samples = Number(process.argv[3] ?? 5);
const pairsPerBlock = 25;
const blockIntervalMs = devnetParams.targetBlockTimeMs;
const hrp = regtestParams.hrp;
const agentAccount = encodeAddress(hrp, owner.address);

function fail(what: string, answer: unknown): never {
  console.error(`bench/a2a-settlement: ${what}: ${JSON.stringify(answer)}`);
  process.exit(1);
}

const node = await startBenchNode(['--agent-account', agentAccount, '--agent-session-key-id', '1', '--rate-limits=false']);
const apiKey = readFileSync(join(node.dir, 'api.cookie'), 'utf8').trim();
const base = `http://127.0.0.1:${node.httpPort}`;

async function post(path: string, body: unknown): Promise<any> {
  const res = await fetch(base + path, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': apiKey, 'a2a-version': '1.0' }, body: JSON.stringify(body) });
  const answer = await res.json();
  if (res.status !== 200) fail(`${path} answered ${res.status}`, answer);
  return answer;
}
async function rpc(method: string, params: unknown): Promise<any> {
  const answer = await post('/api/v1/rpc', { jsonrpc: '2.0', id: 1, method, params });
  if (answer.error) fail(method, answer.error);
  return answer.result;
}
/** One JSON-RPC batch of calls that must all succeed. */
async function rpcBatch(calls: { method: string; params: unknown }[]): Promise<void> {
  const answers = (await post('/api/v1/rpc', calls.map((c, i) => ({ jsonrpc: '2.0', id: i, ...c })))) as any[];
  for (const a of answers) if (a.error) fail('batch call', a.error);
}
async function mine(miner?: Uint8Array): Promise<void> {
  const result = await rpc('submit_block', { block: await solvedBlock(node, miner === undefined ? undefined : encodeAddress(hrp, miner)) });
  if (result.status !== 'accepted') fail('submit_block', result);
}
const nonceOf = async (address: Uint8Array) => BigInt((await rpc('get_balance', { address: encodeAddress(hrp, address) })).nonce);
const rawTx = (tx: Parameters<typeof encodeTransaction>[0]) => ({ method: 'send_raw_transaction', params: { transaction: `0x${toHex(encodeTransaction(tx))}` } });

// The agent account (signed by its owner key, held here) with a claim session key from the node's wallet.
for (const miner of [owner.address, client.address, client.address]) await mine(miner);
await mine();
const sessionKey = fromHex(((await rpc('create_address', {})).public_key as string).replace(/^0x/, ''));
const ownerNonce = await nonceOf(owner.address);
await rpcBatch(claimingAgentTransactions(sessionKey, ownerNonce, { txCap: 10n ** 8n, totalCap: 10n ** 12n, expiryDaaScore: 10n ** 9n }).map(rawTx));
await mine();
await mine();

/** Locks `count` escrows for the agent (one escrow pays for one task), 60 per block: the mempool holds 64 per address. */
async function lock(count: number): Promise<string[]> {
  const ids: string[] = [];
  while (ids.length < count) {
    const nonce = await nonceOf(client.address);
    const tip = Number((await rpc('get_block_height', {})).height);
    const nonces = Array.from({ length: Math.min(60, count - ids.length) }, (_, i) => nonce + BigInt(i));
    await rpcBatch(nonces.map((k) => rawTx(signed(escrowCreateKind, { agent: owner.address, taskHash: new Uint8Array(32).fill(1), amount: 20_000n, timeoutDaaScore: BigInt(tip + 100_000), disputeWindow: 1n, arbiter: undefined }, client, k))));
    await mine();
    await mine();
    ids.push(...nonces.map((k) => `0x${toHex(escrowIdOf(client.address, k))}`));
  }
  // The dispute window (1 DAA step) has passed: each completed task's claim goes out at once.
  await mine();
  return ids;
}

let messageId = 0;
const settlementOf = (escrowHash: string) => ({ chainSettlement: { maxCost: 1_000_000, currency: 'WEFT', escrowHash, agentAccount, skillId: 'chain-query' } });
/** The node process's CPU time so far (user + system), ms: /proc/<pid>/stat fields 14 and 15, in 10 ms ticks. */
function nodeCpuMs(): number {
  const fields = readFileSync(`/proc/${node.child.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}
async function sendMessage(escrowHash: string | undefined): Promise<{ ms: number; cpuMs: number; taskId: string }> {
  const params = {
    message: { messageId: `bench-${++messageId}`, role: 'ROLE_USER', parts: [{ text: 'block height' }] },
    configuration: { returnImmediately: true },
    ...(escrowHash === undefined ? {} : { metadata: settlementOf(escrowHash) }),
  };
  const cpuBefore = nodeCpuMs();
  const started = performance.now();
  const answer = await post('/a2a', { jsonrpc: '2.0', id: messageId, method: 'SendMessage', params });
  const ms = performance.now() - started;
  const cpuMs = nodeCpuMs() - cpuBefore;
  if (answer.error || typeof answer.result?.task?.id !== 'string') fail('SendMessage', answer);
  return { ms, cpuMs, taskId: answer.result.task.id };
}
async function getTask(id: string): Promise<any> {
  const answer = await post('/a2a', { jsonrpc: '2.0', id: ++messageId, method: 'GetTask', params: { id } });
  if (answer.error) fail('GetTask', answer);
  return answer.result;
}
const terminal = new Set(['TASK_STATE_COMPLETED', 'TASK_STATE_FAILED', 'TASK_STATE_CANCELED', 'TASK_STATE_REJECTED']);
/** Waits until the task is done and, when settled, its claim submitted (or confirmed): the node has gone quiet. */
async function settle(taskId: string, settled: boolean, claimStatuses: readonly string[]): Promise<any> {
  for (let polls = 0; polls < 5_000; polls++) {
    const task = await getTask(taskId);
    const state = task.status.state as string;
    if (terminal.has(state) && state !== 'TASK_STATE_COMPLETED') fail(`task ${taskId} ended ${state}`, task);
    const claim = task.metadata?.taskAnchor?.claim;
    if (claim?.status === 'refused') fail(`the claim of task ${taskId} was refused`, claim);
    if (state === 'TASK_STATE_COMPLETED' && (!settled || claimStatuses.includes(claim?.status))) return task;
    await new Promise((r) => setTimeout(r, 2));
  }
  fail(`task ${taskId} did not settle`, await getTask(taskId));
}

const loadavg = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
console.log(`load average at start: ${loadavg()}`);
const escrows = await lock(pairs + 10 + samples);
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
const fmt = (x: number) => x.toFixed(3);

// 1. Warm both paths (5 pairs), then measure `pairs` pairs, mining the claims every `pairsPerBlock` pairs.
const plain: number[] = [];
const settledMs: number[] = [];
// The node's CPU during each request: summed per mode, the 10 ms ticks average out, and other processes' load on
// the shared machine does not count, unlike wall time.
const cpu = { plain: 0, settled: 0 };
for (let i = 0; i < pairs + 5; i++) {
  if (i > 0 && i % pairsPerBlock === 0) {
    await mine();
    await mine();
  }
  for (const settled of i % 2 === 0 ? [false, true] : [true, false]) {
    const { ms, cpuMs, taskId } = await sendMessage(settled ? escrows.pop() : undefined);
    await settle(taskId, settled, ['pending']);
    if (i < 5) continue;
    (settled ? settledMs : plain).push(ms);
    cpu[settled ? 'settled' : 'plain'] += cpuMs;
  }
}
console.log(`1. SendMessage over JSON-RPC (returnImmediately), ${pairs} pairs, alternating, the node quiet between requests:`);
console.log(`   without settlement    p50 ${fmt(pct(plain, 50))} ms  p99 ${fmt(pct(plain, 99))} ms`);
console.log(`   with chainSettlement  p50 ${fmt(pct(settledMs, 50))} ms  p99 ${fmt(pct(settledMs, 99))} ms`);
const added = pct(settledMs, 50) - pct(plain, 50);
console.log(`   node CPU per request  ${fmt(cpu.plain / pairs)} ms without, ${fmt(cpu.settled / pairs)} ms with (mean over the run; adds ${fmt((cpu.settled - cpu.plain) / pairs)} ms)`);
console.log(`   the check adds        p50 ${fmt(added)} ms (target < 2 ms: ${added < 2 ? 'met' : 'NOT met'}), p99 ${fmt(pct(settledMs, 99) - pct(plain, 99))} ms; ratio p50 ${(pct(settledMs, 50) / pct(plain, 50)).toFixed(3)}`);

// 2. Mine part 1's claims, then a block every second while each sample waits for its confirmed claim.
for (let i = 0; i < 4; i++) await mine();
let blocks = 0;
let mining = true;
const miner = (async () => {
  while (mining) {
    const next = performance.now() + blockIntervalMs;
    await mine();
    blocks++;
    await new Promise((r) => setTimeout(r, Math.max(0, next - performance.now())));
  }
})();
const sampleBlocks: number[] = [];
const sampleMs: number[] = [];
for (let s = 0; s < samples; s++) {
  // A random phase against the block timer, as a client's request would have.
  await new Promise((r) => setTimeout(r, Math.random() * blockIntervalMs));
  const began = performance.now();
  const blocksBefore = blocks;
  const { taskId } = await sendMessage(escrows.pop());
  await settle(taskId, true, ['confirmed']);
  sampleMs.push(performance.now() - began);
  sampleBlocks.push(blocks - blocksBefore);
}
mining = false;
await miner;
const median = (xs: number[]) => pct(xs, 50);
console.log(`2. SendMessage → confirmed claim, a block every ${blockIntervalMs} ms, ${samples} samples:`);
console.log(`   blocks ${sampleBlocks.join(', ')} (median ${median(sampleBlocks)}, max ${Math.max(...sampleBlocks)}; target ≤ 3: ${Math.max(...sampleBlocks) <= 3 ? 'met' : 'NOT met'})`);
console.log(`   wall   ${sampleMs.map((x) => x.toFixed(0)).join(', ')} ms (median ${median(sampleMs).toFixed(0)} ms)`);
console.log(`load average at end: ${loadavg()}`);
await node.stop();
