/**
 * JSON-RPC over HTTP throughput (issue #4): `get_block_height` POSTed to a real node (child process, regtest) with
 * autocannon, against a baseline measured in the same run — a bare Hono app on @hono/node-server, in its own child
 * process, answering every POST with a constant JSON body. Target: the node at ≥ 60 % of the baseline's requests/s.
 *
 *   npx tsx bench/rpc-http.ts [seconds=10] [connections=32]
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';
import { startBenchNode } from './rpc-node-process.ts';

const seconds = Number(process.argv[2] ?? 10);
const connections = Number(process.argv[3] ?? 32);
const body = JSON.stringify({ jsonrpc: '2.0', method: 'get_block_height', params: {}, id: 1 });

const bareApp = `
import { Hono } from 'hono';
import { serve } from '@hono/node-server';
const app = new Hono();
app.post('/api/v1/rpc', (c) => c.json({ jsonrpc: '2.0', result: { height: 0 }, id: 1 }));
serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => console.log(JSON.stringify({ port: info.port })));
`;

async function startBare(): Promise<{ port: number; stop(): void }> {
  const child = spawn(process.execPath, ['--input-type=module', '-e', bareApp], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((done) => createInterface({ input: child.stdout! }).once('line', (l) => done((JSON.parse(l) as { port: number }).port)));
  return { port, stop: () => child.kill('SIGTERM') };
}

async function load(port: number): Promise<{ rps: number; p50: number; p99: number; errors: number; non2xx: number }> {
  const result = await autocannon({
    url: `http://127.0.0.1:${port}/api/v1/rpc`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
    connections,
    duration: seconds,
  });
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors: result.errors, non2xx: result.non2xx };
}

const node = await startBenchNode();
const bare = await startBare();
try {
  // Warm both (JIT, connection setup), then measure each alone so they never share the CPU.
  await autocannon({ url: `http://127.0.0.1:${bare.port}/api/v1/rpc`, method: 'POST', body, connections, duration: 2 });
  await autocannon({ url: `http://127.0.0.1:${node.httpPort}/api/v1/rpc`, method: 'POST', body, connections, duration: 2 });
  const baseline = await load(bare.port);
  const weft = await load(node.httpPort);
  const ratio = weft.rps / baseline.rps;
  const row = (name: string, r: typeof weft) => `${name.padEnd(34)} ${r.rps.toFixed(0).padStart(8)} req/s   p50 ${String(r.p50).padStart(3)} ms   p99 ${String(r.p99).padStart(3)} ms   errors ${r.errors} non-2xx ${r.non2xx}`;
  console.log(`autocannon, ${connections} connections, ${seconds} s each, POST get_block_height`);
  console.log(row('bare Hono constant JSON (baseline)', baseline));
  console.log(row('weft node JSON-RPC', weft));
  console.log(`ratio weft/baseline = ${ratio.toFixed(3)} (target ≥ 0.60): ${ratio >= 0.6 ? 'PASS' : 'FAIL'}`);
} finally {
  bare.stop();
  await node.stop();
}
