/**
 * Bench helpers: a real `weft node` child process on regtest (its own event loop, as in production) with its HTTP
 * and WebSocket ports read from its JSON log, and a solved next block made from get_block_template over JSON-RPC.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { decodeHeader } from '../src/codec/header.ts';
import { encodeBlock } from '../src/codec/block.ts';
import { blockHash, compactToTarget, hashMeetsTarget } from '../src/consensus/pow.ts';
import { encodeAddress } from '../src/crypto/address.ts';
import { fromHex, toHex } from '../src/util/bytes.ts';

export interface BenchNode {
  readonly child: ChildProcess;
  /** The node's datadir (its admin API key is `api.cookie` there). */
  readonly dir: string;
  readonly httpPort: number;
  readonly wsPort: number;
  rpc(method: string, params?: unknown): Promise<any>;
  stop(): Promise<void>;
}

export async function startBenchNode(extraArgs: readonly string[] = []): Promise<BenchNode> {
  const dir = mkdtempSync(join(tmpdir(), 'weft-bench-'));
  // WEFT_BENCH_NODE_FLAGS passes Node flags to the node only (e.g. --cpu-prof --cpu-prof-dir=/tmp/prof to profile it).
  const nodeFlags = (process.env.WEFT_BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeFlags, resolve('bin/weft.mjs'), 'node', '--network', 'regtest', '--datadir', dir, '--rpc-port', '0', '--ws-port', '0', '--p2p-port', '0', '--log-level', 'info', ...extraArgs], { stdio: ['ignore', 'pipe', 'inherit'] });
  const ports: { http?: number; ws?: number } = {};
  await new Promise<void>((done, fail) => {
    child.once('exit', (code) => fail(new Error(`node exited with ${code}`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      try {
        const entry = JSON.parse(line) as { msg?: string; port?: number };
        if (entry.msg === 'http listening') ports.http = entry.port;
        if (entry.msg === 'websocket listening') ports.ws = entry.port;
        if (ports.http && ports.ws) done();
      } catch {
        /* not JSON */
      }
    });
  });
  const httpPort = ports.http!;
  return {
    child,
    dir,
    httpPort,
    wsPort: ports.ws!,
    async rpc(method, params = {}) {
      const res = await fetch(`http://127.0.0.1:${httpPort}/api/v1/rpc`, { method: 'POST', body: JSON.stringify({ jsonrpc: '2.0', method, params, id: 1 }) });
      const body = (await res.json()) as { result?: unknown; error?: unknown };
      if (body.error) throw new Error(JSON.stringify(body.error));
      return body.result;
    },
    async stop() {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const benchMiner = encodeAddress('rweft', Uint8Array.from({ length: 33 }, (_, i) => (i === 0 ? 0 : 7)));

/** A solved next block as submit_block's hex: template from the node, nonce ground here (regtest: ~2 tries). */
export async function solvedBlock(node: BenchNode, miner = benchMiner): Promise<string> {
  const template = (await node.rpc('get_block_template', { miner_address: miner })) as { header: string; transactions: string[] };
  let header = decodeHeader(fromHex(template.header.slice(2)));
  for (let nonce = 0n; ; nonce++) {
    header = { ...header, nonce };
    if (hashMeetsTarget(blockHash(header), compactToTarget(header.bits))) break;
  }
  return `0x${toHex(encodeBlock({ header, transactions: template.transactions.map((t) => fromHex(t.slice(2))) }))}`;
}
