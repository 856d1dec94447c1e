// A real node for RPC tests: regtest, LMDB in a temp dir, every port 0. With `withPorts` the ledger, mempool and
// wallet ports are in-memory ones (test/helpers/rpc-ports.ts) that tests drive directly; without, the node's own.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeBlock, type Block } from '../../src/codec/block.ts';
import { loadConfig } from '../../server/config.ts';
import { createLogger } from '../../server/logger.ts';
import { startNode, type RunningNode } from '../../server/node/start-node.ts';
import { toHex } from '../../src/util/bytes.ts';
import { makeBlock, type MakeBlockOptions } from './chain-fixtures.ts';
import { createMemoryLedger, createMemoryMempool, createMemoryWallet, type MemoryLedger, type MemoryMempool, type MemoryWallet } from './rpc-ports.ts';

export interface RpcTestNode {
  readonly node: RunningNode;
  readonly ledger: MemoryLedger;
  readonly mempool: MemoryMempool;
  readonly wallet: MemoryWallet;
  readonly base: string;
  rpc(method: string, params?: unknown, id?: unknown): Promise<{ status: number; body: any; text: string }>;
  post(path: string, body: string): Promise<{ status: number; body: any; text: string }>;
  get(path: string): Promise<{ status: number; body: any; text: string; headers: Headers }>;
  /** Builds a valid next block (makeBlock) and submits it over JSON-RPC; returns the block and its hash. */
  mine(options?: MakeBlockOptions): Promise<{ block: Block; hash: string }>;
  close(): Promise<void>;
}

/** `datadir`: a directory the caller owns (a restart test starts a second node on it); close() then leaves it. */
export async function startRpcTestNode(extraArgs: readonly string[] = [], withPorts = true, datadir?: string): Promise<RpcTestNode> {
  const dir = datadir ?? mkdtempSync(join(tmpdir(), 'weft-rpc-'));
  const config = loadConfig(['--network', 'regtest', '--datadir', dir, '--rpc-port', '0', '--ws-port', '0', '--p2p-port', '0', ...extraArgs]);
  let node: RunningNode | undefined;
  const ledger = createMemoryLedger(() => node!.chain.selectedTip().hash);
  const mempool = createMemoryMempool(config.params, ledger, () => Date.now());
  const wallet = createMemoryWallet(config.params, ledger, mempool);
  node = await startNode(config, createLogger('silent'), withPorts ? { ledger, mempool, wallet } : {});
  const base = `http://127.0.0.1:${node.httpPort}`;
  // Tests act as the node's owner: the admin key from api.cookie (docs/auth.md) unlocks every scope.
  const apiKey = readFileSync(node.apiCookiePath, 'utf8').trim();
  const read = async (res: Response) => {
    const text = await res.text();
    let body: any; // JSON of any shape; tests assert on it
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    return { status: res.status, body, text, headers: res.headers };
  };
  const post = async (path: string, body: string) => read(await fetch(base + path, { method: 'POST', body, headers: { 'content-type': 'application/json', 'x-api-key': apiKey } }));
  const running = node;
  return {
    node: running,
    ledger,
    mempool,
    wallet,
    base,
    post,
    rpc: (method, params, id = 1) => post('/api/v1/rpc', JSON.stringify({ jsonrpc: '2.0', method, ...(params === undefined ? {} : { params }), id })),
    get: async (path) => read(await fetch(base + path, { headers: { 'x-api-key': apiKey } })),
    async mine(options = {}) {
      const block = makeBlock(running.chain, options);
      const res = await post('/api/v1/rpc', JSON.stringify({ jsonrpc: '2.0', method: 'submit_block', params: { block: `0x${toHex(encodeBlock(block))}` }, id: 'mine' }));
      if (res.body?.result?.status !== 'accepted') throw new Error(`submit_block failed: ${res.text}`);
      return { block, hash: res.body.result.hash as string };
    },
    async close() {
      await running.close();
      if (datadir === undefined) rmSync(dir, { recursive: true, force: true });
    },
  };
}

type Kind = 'integer' | 'number' | 'string' | 'boolean' | 'array' | 'object' | 'null' | 'hash' | 'string|null' | 'integer|null';

/** Checks that `value` has every field with the seed's JSON type. */
export function fieldTypes(value: Record<string, unknown>, spec: Record<string, Kind>): string[] {
  const problems: string[] = [];
  for (const [field, kind] of Object.entries(spec)) {
    const v = value[field];
    const ok = kind.split('|').some((k) => {
      switch (k) {
        case 'integer': return typeof v === 'number' && Number.isInteger(v);
        case 'number': return typeof v === 'number';
        case 'string': return typeof v === 'string';
        case 'boolean': return typeof v === 'boolean';
        case 'array': return Array.isArray(v);
        case 'object': return typeof v === 'object' && v !== null && !Array.isArray(v);
        case 'null': return v === null;
        case 'hash': return typeof v === 'string' && /^0x[0-9a-f]{64}$/.test(v);
        default: return false;
      }
    });
    if (!ok) problems.push(`${field}: expected ${kind}, got ${JSON.stringify(v)}`);
  }
  return problems;
}

export const seedBlockFields = {
  height: 'integer', hash: 'hash', previous_hash: 'hash', timestamp: 'integer', difficulty: 'integer', nonce: 'integer',
  merkle_root: 'hash', transaction_count: 'integer', size: 'integer', miner: 'string', gpu_mining: 'boolean',
  parent_hashes: 'array', blue_score: 'integer',
} as const;

export const seedTransactionFields = {
  hash: 'hash', from: 'string', to: 'string', amount: 'number', fee: 'number', block_height: 'integer|null', block_hash: 'string|null',
  confirmations: 'integer', timestamp: 'integer', privacy_level: 'string', energy_used: 'integer',
} as const;

export const seedBalanceFields = { address: 'string', balance: 'number', pending_balance: 'number', energy: 'integer', nonce: 'integer' } as const;
