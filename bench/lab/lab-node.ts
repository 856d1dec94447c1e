/**
 * One `weft node` of the network lab, as shipped (bin/weft.mjs, regtest, its own temp datadir, every port chosen by
 * the OS), read back through its JSON log lines: the ports it bound, and when it committed each block. It dials only
 * its addnode targets (`--connect-only`): each is a link emulator's port, so every path between lab nodes runs through
 * a link (an address learned by `addr` is the neighbour's bare port on 127.0.0.1, which would bypass it).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createServer } from 'node:net';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { nodeV8Flags } from '../../bin/node-flags.mjs';

const repoRoot = resolve(fileURLToPath(new URL('../..', import.meta.url)));

export interface LabNode {
  readonly index: number;
  /** The ports it bound at its first start (NaN before); a restart binds the same ones. */
  readonly p2pPort: number;
  readonly httpPort: number;
  readonly wsPort: number;
  /** Block hash (0x…) → wall-clock ms this node committed it (from its log line's time). */
  readonly committedAt: Map<string, number>;
  /** Log lines of the given event. */
  events(event: string): Record<string, unknown>[];
  /** Every JSON log line it wrote, across restarts (the report keeps them: why a figure is what it is). */
  log(): readonly Record<string, unknown>[];
  /** The first log line with this message (`chain loaded`, …). */
  firstLine(msg: string): Record<string, unknown> | undefined;
  rpc(method: string, params?: unknown): Promise<any>;
  /** Payload bytes it sent its peers since its last start, by message type (/metrics `weft_p2p_sent_bytes`). */
  sentBytesByMessage(): Promise<Record<string, number>>;
  cpuSeconds(): number;
  rssBytes(): number;
  kill(): void;
  /**
   * Starts the node: the first time on ports the OS chooses, after a kill (churn) on its datadir and ports again.
   * Resolves once it listens on all three; a start already under way is the one awaited.
   */
  start(): Promise<void>;
  /** Up and listening (started, not killed since). */
  isRunning(): boolean;
  stop(): Promise<void>;
}

export async function startLabNode(index: number, addnodes: readonly string[], extraArgs: readonly string[] = [], p2pPortFirst = 0): Promise<LabNode> {
  const node = createLabNode(index, addnodes, extraArgs, p2pPortFirst);
  await node.start();
  return node;
}

/**
 * A TCP port free on 127.0.0.1, for a node whose neighbours' links must know its P2P port before it starts. Drawn
 * below Linux's ephemeral range (32768–60999): a port the OS hands out for a bind to port 0 — the other nodes' RPC
 * and WebSocket servers, the links' relays — could otherwise take it between this probe and the node's own bind
 * (seen: a node whose P2P port another node's server held never started).
 */
export async function freePort(): Promise<number> {
  for (let tries = 0; tries < 100; tries++) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    if (await bindsNow(port)) return port;
  }
  throw new Error('no free port in 20000–31999 after 100 tries');
}

function bindsNow(port: number): Promise<boolean> {
  return new Promise((done) => {
    const server = createServer();
    server.once('error', () => done(false));
    server.listen(port, '127.0.0.1', () => server.close(() => done(true)));
  });
}

/**
 * A lab node not yet started (a node that joins mid-run is created with the others and started later). Its first
 * start binds `p2pPortFirst` (0: a port the OS chooses); a restart binds the ports of the first start.
 */
export function createLabNode(index: number, addnodes: readonly string[], extraArgs: readonly string[] = [], p2pPortFirst = 0): LabNode {
  const datadir = mkdtempSync(join(tmpdir(), `weft-lab-${index}-`));
  const lines: Record<string, unknown>[] = [];
  const committedAt = new Map<string, number>();
  let child: ChildProcess | undefined;
  let ports = new Map<string, number>();
  let starting: Promise<void> | undefined;
  let listening = false;
  const spawnNode = (portArgs: readonly string[]): Promise<void> => {
    const args = ['node', '--network', 'regtest', '--datadir', datadir, ...portArgs, '--log-level', 'info', '--rate-limits=false', '--connect-only', ...addnodes.flatMap((a) => ['--addnode', a]), ...extraArgs];
    // The node's own V8 flags (bin/node-flags.mjs, as `weft` and `npm start` run it), then WEFT_BENCH_NODE_FLAGS: Node.js flags for the node processes (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`), as the other benches take.
    const nodeFlags = (process.env.WEFT_BENCH_NODE_FLAGS ?? '').split(' ').filter((f) => f !== '');
    const spawned = spawn(process.execPath, [...nodeV8Flags, ...nodeFlags, resolve(repoRoot, 'bin/weft.mjs'), ...args], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    child = spawned;
    spawned.stderr!.resume();
    ports = new Map();
    return new Promise<void>((done, fail) => {
      const timer = setTimeout(() => {
        spawned.kill('SIGKILL');
        fail(new Error(`lab node ${index} did not start within 90 s`));
      }, 90_000);
      spawned.once('exit', (code) => fail(new Error(`lab node ${index} exited (${code}) while starting`)));
      createInterface({ input: spawned.stdout! }).on('line', (text) => {
        let line: Record<string, unknown>;
        try {
          line = JSON.parse(text) as Record<string, unknown>;
        } catch {
          return;
        }
        lines.push(line);
        if (line.event === 'block_committed' && !committedAt.has(String(line.hash))) committedAt.set(String(line.hash), Date.parse(String(line.time)));
        const msg = String(line.msg);
        if (msg === 'p2p listening' || msg === 'http listening' || msg === 'websocket listening') ports.set(msg, Number(line.port));
        if (ports.size === 3) {
          clearTimeout(timer);
          done();
        }
      });
    });
  };
  let p2pPort = Number.NaN;
  let httpPort = Number.NaN;
  let wsPort = Number.NaN;
  const alive = () => child !== undefined && child.exitCode === null && child.signalCode === null;
  const apiKey = () => readFileSync(join(datadir, 'api.cookie'), 'utf8').trim();
  const stat = (): string[] => readFileSync(`/proc/${child!.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  let cpuBeforeRestarts = 0;
  const firstStart = async (): Promise<void> => {
    await spawnNode(['--rpc-port', '0', '--ws-port', '0', '--p2p-port', String(p2pPortFirst)]);
    p2pPort = ports.get('p2p listening')!;
    httpPort = ports.get('http listening')!;
    wsPort = ports.get('websocket listening')!;
  };
  return {
    index,
    get p2pPort() {
      return p2pPort;
    },
    get httpPort() {
      return httpPort;
    },
    get wsPort() {
      return wsPort;
    },
    committedAt,
    events: (event) => lines.filter((l) => l.event === event),
    log: () => lines,
    firstLine: (msg) => lines.find((l) => l.msg === msg),
    async rpc(method, params = {}) {
      const res = await fetch(`http://127.0.0.1:${httpPort}/api/v1/rpc`, {
        method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': apiKey() }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      });
      const body = (await res.json()) as { result?: unknown; error?: { code: number; message: string } };
      if (body.error) throw new Error(`node ${index} ${method}: ${body.error.code} ${body.error.message}`);
      return body.result;
    },
    async sentBytesByMessage() {
      const text = await (await fetch(`http://127.0.0.1:${httpPort}/metrics`)).text();
      const sent: Record<string, number> = {};
      for (const [, message, bytes] of text.matchAll(/^weft_p2p_sent_bytes\{message="([a-z]+)"\} (\d+)$/gm)) sent[message!] = Number(bytes);
      return sent;
    },
    cpuSeconds() {
      if (!alive()) return cpuBeforeRestarts;
      const f = stat();
      return cpuBeforeRestarts + (Number(f[11]) + Number(f[12])) / 100; // utime + stime in clock ticks (100 Hz)
    },
    rssBytes: () => (alive() ? Number(stat()[21]) * 4096 : 0),
    kill() {
      if (!alive()) return;
      const f = stat();
      cpuBeforeRestarts += (Number(f[11]) + Number(f[12])) / 100;
      listening = false;
      child!.kill('SIGKILL');
    },
    start() {
      if (starting !== undefined) return starting;
      if (alive()) return Promise.resolve();
      const run = Number.isNaN(p2pPort) ? firstStart() : spawnNode(['--rpc-port', String(httpPort), '--ws-port', String(wsPort), '--p2p-port', String(p2pPort)]);
      starting = run.then(() => void (listening = true)).finally(() => void (starting = undefined));
      return starting;
    },
    isRunning: () => listening && alive(),
    async stop() {
      if (alive()) {
        const exited = new Promise((done) => child!.once('exit', done));
        child!.kill('SIGTERM');
        await Promise.race([exited, new Promise((done) => setTimeout(done, 15_000))]);
        if (alive()) child!.kill('SIGKILL');
      }
      rmSync(datadir, { recursive: true, force: true });
    },
  };
}
