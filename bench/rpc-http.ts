/**
 * JSON-RPC over HTTP throughput, the node as shipped (a `weft node` child process on regtest) against a baseline in
 * the same run: a bare Hono app on @hono/node-server, in its own child process, answering every POST with a constant
 * JSON body of the same shape. Each scenario loads one at a time so they never share the CPU:
 *
 *   anonymous, limits off   get_block_height, no credentials, node started with --rate-limits=false (target ≥ 0.6)
 *   API key, limits off     the same with X-API-Key (the admin key from api.cookie)             (target ≥ 0.6)
 *   batch of 10, limits off one POST carrying ten get_block_height calls
 *   anonymous, limits on    the node as shipped: every answer counts, 200 or 429 (target: the limiter is not the
 *                           bottleneck — its 429s cost no more than its 200s)
 *
 * Beside req/s it prints each server's CPU time per answered request (user + system from /proc, Linux), whose ratio
 * holds up better than req/s on a shared box where autocannon and other jobs take turns on the cores.
 *
 * The bench fails loudly (exit 1) on any answer it does not expect: a non-2xx where limits are off, anything but
 * 200/429 where they are on, a socket error, or a JSON-RPC error object in the first answer of a scenario.
 *
 *   npx tsx bench/rpc-http.ts [seconds=5] [connections=32]
 *   WEFT_BENCH_NODE_FLAGS="--cpu-prof --cpu-prof-dir=/tmp/prof" WEFT_BENCH_SCENARIOS="anonymous, limits off" npx tsx bench/rpc-http.ts
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';
import { startBenchNode, type BenchNode } from './rpc-node-process.ts';

const seconds = Number(process.argv[2] ?? 5);
const connections = Number(process.argv[3] ?? 32);
const call = { jsonrpc: '2.0', method: 'get_block_height', params: {}, id: 1 };
const single = JSON.stringify(call);
const batch = JSON.stringify(Array.from({ length: 10 }, (_, i) => ({ ...call, id: i + 1 })));

const bareApp = `
import { Hono } from 'hono';
import { serve } from '@hono/node-server';
const app = new Hono();
app.post('/api/v1/rpc', async (c) => {
  const body = await c.req.json();
  const answer = (id) => ({ jsonrpc: '2.0', result: { height: 0 }, id });
  return c.json(Array.isArray(body) ? body.map((call) => answer(call.id)) : answer(body.id));
});
serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => console.log(JSON.stringify({ port: info.port })));
`;

async function startBare(): Promise<{ port: number; pid: number; stop(): void }> {
  const child = spawn(process.execPath, ['--input-type=module', '-e', bareApp], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((done) => createInterface({ input: child.stdout! }).once('line', (l) => done((JSON.parse(l) as { port: number }).port)));
  return { port, pid: child.pid!, stop: () => child.kill('SIGTERM') };
}

interface Load {
  readonly rps: number;
  /** The server process's CPU time per answered request (user + system, from /proc; NaN where there is none). */
  readonly cpuUs: number;
  readonly p50: number;
  readonly p99: number;
  readonly statuses: Record<string, number>;
  readonly errors: number;
}

function fail(message: string): never {
  console.error(`bench/rpc-http.ts: ${message}`);
  process.exit(1);
}

/** CPU time of a process in clock ticks (100 Hz), user + system; NaN off Linux. */
function cpuTicks(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return Number.NaN;
  }
}

async function load(port: number, pid: number, body: string, headers: Record<string, string>, durationS = seconds): Promise<Load> {
  const ticks = cpuTicks(pid);
  const result = await autocannon({
    url: `http://127.0.0.1:${port}/api/v1/rpc`,
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
    connections,
    duration: durationS,
  });
  const codes = (result as unknown as { statusCodeStats?: Record<string, { count: number }> }).statusCodeStats ?? {};
  const statuses = Object.fromEntries(Object.entries(codes).map(([code, s]) => [code, (s as { count: number }).count]));
  const answered = (result as unknown as { requests: { total: number } }).requests.total;
  const cpuUs = ((cpuTicks(pid) - ticks) * 10_000) / answered;
  return { rps: result.requests.average, cpuUs, p50: result.latency.p50, p99: result.latency.p99, statuses, errors: result.errors + result.timeouts };
}

/** One request up front: the scenario must answer results, never a JSON-RPC error. */
async function preflight(port: number, body: string, headers: Record<string, string>, name: string): Promise<void> {
  const res = await fetch(`http://127.0.0.1:${port}/api/v1/rpc`, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });
  const answer = (await res.json()) as unknown;
  const answers = Array.isArray(answer) ? answer : [answer];
  if (res.status !== 200 || answers.some((a) => (a as { error?: unknown }).error !== undefined || (a as { result?: unknown }).result === undefined)) {
    fail(`${name}: preflight answered ${res.status} ${JSON.stringify(answer).slice(0, 300)}`);
  }
}

function check(name: string, r: Load, allowed: readonly string[]): void {
  const unexpected = Object.entries(r.statuses).filter(([code]) => !allowed.includes(code));
  if (r.errors > 0 || unexpected.length > 0) fail(`${name}: ${r.errors} socket errors, unexpected statuses ${JSON.stringify(Object.fromEntries(unexpected))}`);
}

const row = (name: string, r: Load) =>
  `${name.padEnd(40)} ${r.rps.toFixed(0).padStart(8)} req/s ${r.cpuUs.toFixed(0).padStart(5)} µs CPU/req   p50 ${String(r.p50).padStart(3)} ms   p99 ${String(r.p99).padStart(4)} ms   ${JSON.stringify(r.statuses)}`;

/** WEFT_BENCH_SCENARIOS="anonymous, limits off|batch" runs only the scenarios whose names contain one of these (profiling). */
const only = (process.env.WEFT_BENCH_SCENARIOS ?? '').split('|').map((s) => s.trim()).filter(Boolean);

async function scenario(node: BenchNode, bare: { port: number; pid: number }, name: string, body: string, headers: Record<string, string>, allowed: readonly string[], target?: number) {
  if (only.length > 0 && !only.some((s) => name.includes(s))) return undefined;
  await preflight(node.httpPort, body, headers, name);
  await autocannon({ url: `http://127.0.0.1:${bare.port}/api/v1/rpc`, method: 'POST', body, connections, duration: 1 });
  await load(node.httpPort, node.child.pid!, body, headers, 1);
  const baseline = await load(bare.port, bare.pid, body, {});
  const weft = await load(node.httpPort, node.child.pid!, body, headers);
  check(`${name} (baseline)`, baseline, ['200']);
  check(name, weft, allowed);
  const ratio = weft.rps / baseline.rps;
  console.log(row(`bare Hono (baseline)`, baseline));
  console.log(row(`weft: ${name}`, weft));
  console.log(`  ratio ${ratio.toFixed(3)}${target === undefined ? '' : ` (target ≥ ${target}: ${ratio >= target ? 'met' : 'NOT met'})`}; CPU per request, baseline / weft: ${(baseline.cpuUs / weft.cpuUs).toFixed(3)}`);
  return ratio;
}

console.log(`autocannon, ${connections} connections, ${seconds} s per contender, POST get_block_height`);
const bare = await startBare();
try {
  const open = await startBenchNode(['--rate-limits=false']);
  try {
    const key = readFileSync(join(open.dir, 'api.cookie'), 'utf8').trim();
    await scenario(open, bare, 'anonymous, limits off', single, {}, ['200'], 0.6);
    await scenario(open, bare, 'API key, limits off', single, { 'x-api-key': key }, ['200'], 0.6);
    await scenario(open, bare, 'batch of 10, limits off', batch, {}, ['200']);
  } finally {
    await open.stop();
  }
  const shipped = await startBenchNode();
  try {
    await scenario(shipped, bare, 'anonymous, limits on (200 or 429)', single, {}, ['200', '429']);
  } finally {
    await shipped.stop();
  }
} finally {
  bare.stop();
}
