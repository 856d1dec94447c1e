// `weft node` child processes for multi-node p2p tests: start one on regtest with every port chosen by the OS, and
// read back the ports it bound and the blocks it committed from its JSON log lines.
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startNodeProcess, type LogLine, type NodeProcess } from './node-process.ts';

export interface P2pProcess {
  readonly proc: NodeProcess;
  readonly p2pPort: number;
  readonly httpPort: number;
  readonly wsPort: number;
  readonly nodeId: string;
  health(): Promise<Record<string, unknown>>;
  /** A JSON-RPC call with the datadir's api cookie; an error answer rejects with its code and message. */
  rpc(method: string, params?: unknown): Promise<any>;
  /** Hashes (0x…) of the blocks this process logged as committed. */
  committed(): string[];
  stop(): Promise<void>;
  kill(): Promise<void>;
}

export async function startP2pProcess(datadir: string, extra: readonly string[] = []): Promise<P2pProcess> {
  const proc = startNodeProcess(['--network', 'regtest', '--datadir', datadir, '--rpc-port', '0', '--ws-port', '0', '--p2p-port', '0', '--log-level', 'info', ...extra]);
  // A start that never gets there kills its process: a test that fails must not leave a miner running.
  const listening = (msg: string) => proc.waitFor((l) => l.msg === msg, 60_000);
  const [p2p, http, ws] = await Promise.all([listening('p2p listening'), listening('http listening'), listening('websocket listening')]).catch((error: unknown) => {
    proc.child.kill('SIGKILL');
    throw error;
  });
  const httpPort = http.port as number;
  return {
    proc,
    p2pPort: p2p.port as number,
    httpPort,
    wsPort: ws.port as number,
    nodeId: p2p.nodeId as string,
    health: async () => (await (await fetch(`http://127.0.0.1:${httpPort}/health`)).json()) as Record<string, unknown>,
    async rpc(method, params = {}) {
      const key = readFileSync(join(datadir, 'api.cookie'), 'utf8').trim();
      const res = await fetch(`http://127.0.0.1:${httpPort}/api/v1/rpc`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': key }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
      const body = (await res.json()) as { result?: unknown; error?: { code: number; message: string } };
      if (body.error) throw new Error(`${method}: ${body.error.code} ${body.error.message}`);
      return body.result;
    },
    committed: () => proc.lines.filter((l: LogLine) => l.event === 'block_committed').map((l) => l.hash as string),
    async stop() {
      if (proc.child.exitCode !== null || proc.child.signalCode !== null) return;
      proc.child.kill('SIGTERM');
      await proc.exited;
    },
    async kill() {
      if (proc.child.exitCode !== null || proc.child.signalCode !== null) return;
      proc.child.kill('SIGKILL');
      await proc.exited;
    },
  };
}

export const copyDatadir = (from: string, to: string): void => cpSync(from, to, { recursive: true });
