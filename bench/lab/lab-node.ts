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
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const repoRoot = resolve(fileURLToPath(new URL('../..', import.meta.url)));

export interface LabNode {
  readonly index: number;
  readonly p2pPort: number;
  readonly httpPort: number;
  readonly wsPort: number;
  /** Block hash (0x…) → wall-clock ms this node committed it (from its log line's time). */
  readonly committedAt: Map<string, number>;
  /** Log lines of the given event. */
  events(event: string): Record<string, unknown>[];
  rpc(method: string, params?: unknown): Promise<any>;
  cpuSeconds(): number;
  rssBytes(): number;
  kill(): void;
  /** Starts the node again on its datadir and ports after a kill (churn). */
  restart(): Promise<void>;
  isRunning(): boolean;
  stop(): Promise<void>;
}

export async function startLabNode(index: number, addnodes: readonly string[], extraArgs: readonly string[] = []): Promise<LabNode> {
  const datadir = mkdtempSync(join(tmpdir(), `weft-lab-${index}-`));
  const lines: Record<string, unknown>[] = [];
  const committedAt = new Map<string, number>();
  let child: ChildProcess;
  let ports = new Map<string, number>();
  const spawnNode = (portArgs: readonly string[]): Promise<void> => {
    const args = ['node', '--network', 'regtest', '--datadir', datadir, ...portArgs, '--log-level', 'info', '--rate-limits=false', '--connect-only', ...addnodes.flatMap((a) => ['--addnode', a]), ...extraArgs];
    child = spawn(process.execPath, [resolve(repoRoot, 'bin/weft.mjs'), ...args], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stderr!.resume();
    ports = new Map();
    return new Promise<void>((done, fail) => {
      const timer = setTimeout(() => fail(new Error(`lab node ${index} did not start within 90 s`)), 90_000);
      child.once('exit', (code) => fail(new Error(`lab node ${index} exited (${code}) while starting`)));
      createInterface({ input: child.stdout! }).on('line', (text) => {
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
  await spawnNode(['--rpc-port', '0', '--ws-port', '0', '--p2p-port', '0']);
  const p2pPort = ports.get('p2p listening')!;
  const httpPort = ports.get('http listening')!;
  const wsPort = ports.get('websocket listening')!;
  const running = () => child.exitCode === null && child.signalCode === null;
  const apiKey = () => readFileSync(join(datadir, 'api.cookie'), 'utf8').trim();
  const stat = (): string[] => readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  let cpuBeforeRestarts = 0;
  return {
    index,
    p2pPort,
    httpPort,
    wsPort,
    committedAt,
    events: (event) => lines.filter((l) => l.event === event),
    async rpc(method, params = {}) {
      const res = await fetch(`http://127.0.0.1:${httpPort}/api/v1/rpc`, {
        method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': apiKey() }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      });
      const body = (await res.json()) as { result?: unknown; error?: { code: number; message: string } };
      if (body.error) throw new Error(`node ${index} ${method}: ${body.error.code} ${body.error.message}`);
      return body.result;
    },
    cpuSeconds() {
      if (!running()) return cpuBeforeRestarts;
      const f = stat();
      return cpuBeforeRestarts + (Number(f[11]) + Number(f[12])) / 100; // utime + stime in clock ticks (100 Hz)
    },
    rssBytes: () => (running() ? Number(stat()[21]) * 4096 : 0),
    kill() {
      if (!running()) return;
      const f = stat();
      cpuBeforeRestarts += (Number(f[11]) + Number(f[12])) / 100;
      child.kill('SIGKILL');
    },
    async restart() {
      if (running()) return;
      await spawnNode(['--rpc-port', String(httpPort), '--ws-port', String(wsPort), '--p2p-port', String(p2pPort)]);
    },
    isRunning: running,
    async stop() {
      if (running()) {
        const exited = new Promise((done) => child.once('exit', done));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((done) => setTimeout(done, 15_000))]);
        if (running()) child.kill('SIGKILL');
      }
      rmSync(datadir, { recursive: true, force: true });
    },
  };
}
