// A real regtest node for the wallet and widget e2e tests: ports 0, a temp datadir, the admin key from api.cookie
// (docs/auth.md) for the mining-control calls a test makes on the user's behalf.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startNodeProcess, type NodeProcess } from '../../test/helpers/node-process.ts';
import { nodeRpc } from './node-rpc.ts';

export interface WalletTestNode {
  readonly process: NodeProcess;
  /** http://127.0.0.1:PORT/ */
  readonly url: string;
  readonly wsPort: number;
  /** The admin API key (api.cookie), for helpers that call the node themselves (submit-block.ts). */
  readonly apiKey: string;
  /** JSON-RPC over HTTP with the admin key. */
  rpc<T = unknown>(method: string, params?: Record<string, unknown>): Promise<T>;
  stop(): Promise<void>;
}

export async function startWalletTestNode(): Promise<WalletTestNode> {
  const datadir = mkdtempSync(join(tmpdir(), 'weft-e2e-wallet-'));
  const node = startNodeProcess(['--network', 'regtest', '--datadir', datadir, '--rpc-port', '0', '--ws-port', '0', '--p2p-port', '0']);
  const http = await node.waitFor((l) => l.msg === 'http listening');
  const ws = await node.waitFor((l) => l.msg === 'websocket listening');
  await node.waitFor((l) => l.msg === 'api cookie');
  const apiKey = readFileSync(join(datadir, 'api.cookie'), 'utf8').trim();
  const url = http.url as string;
  return {
    process: node,
    url,
    wsPort: ws.port as number,
    apiKey,
    rpc: <T>(method: string, params: Record<string, unknown> = {}) => nodeRpc<T>(url, method, params, apiKey),
    async stop() {
      node.child.kill('SIGTERM');
      await node.exited;
      rmSync(datadir, { recursive: true, force: true });
    },
  };
}
