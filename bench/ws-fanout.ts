/**
 * WebSocket fan-out (issue #4): 1,000 clients subscribed to `new_blocks` on a real node (child process, regtest);
 * one block is submitted over JSON-RPC and we time from the submit until the last client holds the notification.
 * Baseline in the same run: a bare `ws` server (child process) that sends one pre-serialised message of the same
 * size to the same number of clients when told to over HTTP — the cost of the sockets alone. Repeats 5 rounds.
 *
 *   npx tsx bench/ws-fanout.ts [clients=1000] [rounds=5]
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import WebSocket from 'ws';
import { solvedBlock, startBenchNode } from './rpc-node-process.ts';

const clients = Number(process.argv[2] ?? 1000);
const rounds = Number(process.argv[3] ?? 5);

const bareServer = `
import { WebSocketServer } from 'ws';
import { createServer } from 'node:http';
let payload = '';
const http = createServer((req, res) => {
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => { payload = body; for (const c of wss.clients) c.send(payload); res.end('ok'); });
});
const wss = new WebSocketServer({ server: http, perMessageDeflate: false });
http.listen(0, '127.0.0.1', () => console.log(JSON.stringify({ port: http.address().port })));
`;

async function openClients(port: number, subscribe: boolean): Promise<{ sockets: WebSocket[]; arrivals: () => Promise<number[]> }> {
  const sockets: WebSocket[] = [];
  for (let i = 0; i < clients; i++) {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/`, { perMessageDeflate: false });
    await new Promise((r, f) => ws.once('open', r).once('error', f));
    if (subscribe) {
      ws.send(JSON.stringify({ jsonrpc: '2.0', method: 'subscribe', params: { topic: 'new_blocks' }, id: `s${i}` }));
      await new Promise((r) => ws.once('message', r));
    }
    sockets.push(ws);
  }
  const arrivals = () =>
    Promise.all(sockets.map((ws) => new Promise<number>((r) => ws.once('message', () => r(performance.now())))));
  return { sockets, arrivals };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const node = await startBenchNode();
const bare = spawn(process.execPath, ['--input-type=module', '-e', bareServer], { stdio: ['ignore', 'pipe', 'inherit'] });
const barePort = await new Promise<number>((done) => createInterface({ input: bare.stdout! }).once('line', (l) => done((JSON.parse(l) as { port: number }).port)));
try {
  const weftClients = await openClients(node.wsPort, true);
  const bareClients = await openClients(barePort, false);
  const weftTimes: number[] = [];
  const bareTimes: number[] = [];
  let sample = '';
  for (let round = 0; round < rounds; round++) {
    const block = await solvedBlock(node);
    const got = weftClients.arrivals();
    const first = new Promise<string>((r) => weftClients.sockets[0]!.once('message', (d) => r(d.toString())));
    const t0 = performance.now();
    await node.rpc('submit_block', { block });
    const times = await got;
    weftTimes.push(Math.max(...times) - t0);
    sample = await first;
    // Baseline: the same bytes to the same number of sockets from a server that does nothing else.
    const bareGot = bareClients.arrivals();
    const b0 = performance.now();
    await fetch(`http://127.0.0.1:${barePort}/`, { method: 'POST', body: sample });
    bareTimes.push(Math.max(...(await bareGot)) - b0);
  }
  const w = median(weftTimes);
  const b = median(bareTimes);
  console.log(`${clients} subscribers, ${rounds} rounds, notification ${sample.length} bytes`);
  console.log(`bare ws broadcast (baseline): median ${b.toFixed(1)} ms, max ${Math.max(...bareTimes).toFixed(1)} ms`);
  console.log(`weft new_blocks fan-out (submit_block → last client): median ${w.toFixed(1)} ms, max ${Math.max(...weftTimes).toFixed(1)} ms`);
  console.log(`ratio weft/baseline = ${(w / b).toFixed(2)} (the node also validates, commits and serialises the block)`);
  for (const ws of [...weftClients.sockets, ...bareClients.sockets]) ws.terminate();
} finally {
  bare.kill('SIGTERM');
  await node.stop();
}
