/**
 * bench/throughput.ts's instruments: `weft node` child processes of a checkout (bin/weft.mjs as shipped, regtest,
 * ports 0, a temp datadir each), their JSON-RPC and /health, A's confirmed_transactions topic, and per-thread CPU
 * and memory from /proc. Every error answer fails the bench (`fail`), with the answer.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import WebSocket from 'ws';
import { nodeV8Flags } from '../bin/node-flags.mjs';

export interface BenchNode {
  readonly name: string;
  readonly child: ChildProcess;
  readonly pid: number;
  readonly dir: string;
  readonly http: number;
  readonly ws: number;
  readonly p2p: number;
}

const running: BenchNode[] = [];
let stopping = false;

export function fail(what: string, detail?: unknown): never {
  console.error(`bench/throughput: ${what}${detail === undefined ? '' : `: ${JSON.stringify(detail).slice(0, 2000)}`}`);
  stopping = true;
  for (const n of running) n.child.kill('SIGKILL');
  process.exit(1);
}

// A failure outside main's await chain (a sampler's fetch) would end the process past the finally that stops the
// nodes, leaving them running to skew the next bench on the box: fail() kills them first.
// A fetch's own message ("fetch failed") says nothing: its cause (a reset, a refused connection) does.
const described = (error: unknown): string => `${String(error)}${error instanceof Error && error.cause !== undefined ? ` (${String(error.cause)})` : ''}`;
process.on('unhandledRejection', (error) => fail('unhandled rejection', described(error)));
process.on('uncaughtException', (error) => fail('uncaught exception', described(error)));

export async function startNode(checkout: string, name: string, extra: readonly string[]): Promise<BenchNode> {
  const dir = mkdtempSync(join(tmpdir(), `weft-throughput-${name}-`));
  // The node's own V8 flags (bin/node-flags.mjs, as `weft` and `npm start` run it), then WEFT_BENCH_NODE_FLAGS: Node.js flags for the node processes (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile them).
  const nodeFlags = (process.env.WEFT_BENCH_NODE_FLAGS ?? '').split(' ').filter((f) => f !== '');
  const child = spawn(process.execPath, [...nodeV8Flags, ...nodeFlags, join(checkout, 'bin/weft.mjs'), 'node', '--network', 'regtest', '--datadir', dir,
    '--rpc-port', '0', '--ws-port', '0', '--p2p-port', '0', '--rate-limits=false', '--log-level', 'info', ...extra],
  { cwd: checkout, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-4000)));
  const ports: { http?: number; ws?: number; p2p?: number } = {};
  const node = await new Promise<BenchNode>((done, reject) => {
    child.once('exit', (code) => reject(new Error(`node ${name} exited with ${code}: ${stderr}`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      let entry: { msg?: string; port?: number; level?: number | string };
      try {
        entry = JSON.parse(line);
      } catch {
        return;
      }
      if (entry.msg === 'http listening') ports.http = entry.port;
      if (entry.msg === 'websocket listening') ports.ws = entry.port;
      if (entry.msg === 'p2p listening') ports.p2p = entry.port;
      if (entry.level === 50 || entry.level === 60 || entry.level === 'error' || entry.level === 'fatal') console.error(`[${name}] ${line.slice(0, 400)}`);
      if (ports.http && ports.ws && ports.p2p && !running.some((n) => n.name === name)) {
        const started = { name, child, pid: child.pid!, dir, http: ports.http, ws: ports.ws, p2p: ports.p2p };
        running.push(started);
        done(started);
      }
    });
  });
  child.on('exit', (code, signal) => {
    if (!stopping) fail(`node ${name} exited (${code ?? signal})`, stderr);
  });
  return node;
}

export async function stopNodes(): Promise<void> {
  stopping = true;
  await Promise.all(running.map((n) => new Promise<void>((done) => {
    if (n.child.exitCode !== null || n.child.signalCode !== null) return done();
    n.child.once('exit', () => done());
    n.child.kill('SIGTERM');
    setTimeout(() => n.child.kill('SIGKILL'), 30_000).unref();
  })));
  for (const n of running) rmSync(n.dir, { recursive: true, force: true });
}

async function post(node: BenchNode, body: unknown): Promise<any> {
  const res = await fetch(`http://127.0.0.1:${node.http}/api/v1/rpc`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (res.status !== 200) fail(`${node.name} answered HTTP ${res.status}`, await res.text());
  return res.json();
}

export async function rpc(node: BenchNode, method: string, params: unknown = {}): Promise<any> {
  const answer = await post(node, { jsonrpc: '2.0', id: 1, method, params });
  if (answer.error) fail(`${node.name} ${method}`, answer.error);
  return answer.result;
}

/** Raw transactions in JSON-RPC batches of `batch` (rpcBatchCallsMax), all at once; any error fails the bench. */
export async function sendRaw(node: BenchNode, raws: readonly string[], batch = 100): Promise<string[]> {
  const posts: Promise<string[]>[] = [];
  for (let i = 0; i < raws.length; i += batch) {
    const calls = raws.slice(i, i + batch).map((transaction, k) => ({ jsonrpc: '2.0', id: k, method: 'send_raw_transaction', params: { transaction } }));
    posts.push(post(node, calls).then((answers: { id: number; error?: unknown; result?: { hash: string } }[]) =>
      answers.sort((a, b) => a.id - b.id).map((a) => (a.error ? fail('send_raw_transaction', a.error) : a.result!.hash))));
  }
  return (await Promise.all(posts)).flat();
}

export async function blocksOf(node: BenchNode): Promise<number> {
  const res = await fetch(`http://127.0.0.1:${node.http}/health`);
  return Number(((await res.json()) as { blocks?: number }).blocks);
}

/** Calls `onConfirmed(hash)` for each transaction a chain block of `node` accepts (the confirmed_transactions topic). */
export async function watchConfirmations(node: BenchNode, onConfirmed: (hash: string) => void): Promise<WebSocket> {
  const socket = new WebSocket(`ws://127.0.0.1:${node.ws}/`);
  await new Promise<void>((done, reject) => {
    socket.once('open', () => done());
    socket.once('error', reject);
  });
  socket.on('message', (data) => {
    const message = JSON.parse(data.toString()) as { method?: string; params?: { result?: { hash?: string } }; error?: unknown };
    if (message.error) fail('subscribe', message.error);
    const hash = message.params?.result?.hash;
    if (message.method === 'subscription' && hash !== undefined) onConfirmed(hash);
  });
  socket.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'subscribe', params: { topic: 'confirmed_transactions' } }));
  return socket;
}

/** Each thread's CPU time so far (µs of user + system), by thread id. */
export function threadCpu(pid: number): Map<number, number> {
  const out = new Map<number, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const fields = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      out.set(Number(tid), (Number(fields[11]) + Number(fields[12])) * 10_000); // USER_HZ 100
    } catch {
      /* the thread ended */
    }
  }
  return out;
}

export interface CpuSplit { main: number; mining: number; others: number }

/** µs of CPU since `before`: the main thread, the mining thread (if named), every other thread. */
export function cpuSince(pid: number, before: Map<number, number>, miningTid?: number): CpuSplit {
  const split = { main: 0, mining: 0, others: 0 };
  for (const [tid, us] of threadCpu(pid)) {
    const d = us - (before.get(tid) ?? 0);
    if (tid === pid) split.main += d;
    else if (tid === miningTid) split.mining += d;
    else split.others += d;
  }
  return split;
}

export function rssMb(pid: number): number {
  return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
}

/** The node's Prometheus figures (name with its labels → value), e.g. weft_sig_cache_misses, weft_x_sum{stage="total"}. */
export async function metricsOf(node: BenchNode): Promise<Map<string, number>> {
  const res = await fetch(`http://127.0.0.1:${node.http}/metrics`);
  if (res.status !== 200) fail(`${node.name} /metrics answered HTTP ${res.status}`, await res.text());
  const out = new Map<string, number>();
  for (const line of (await res.text()).split('\n')) {
    const match = /^([a-z_]+(?:\{[^}]*\})?) ([0-9.e+-]+)$/.exec(line);
    if (match) out.set(match[1]!, Number(match[2]));
  }
  return out;
}
