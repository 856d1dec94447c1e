// Every JSON-RPC example in README.md and docs/*.md runs against a real node (regtest, started here): each request
// — a line of a fenced block or an inline code span that is a JSON object with a `method` — is a whole JSON-RPC 2.0
// request, and the node accepts its envelope, method and params (no -32600 / -32601 / -32602) once the docs'
// placeholders (`rweft1…`, `0x…`) stand for real values. WebSocket-only methods run over the WebSocket, in the order
// the docs give them. Paths the docs tell people to read are where the node writes (`./.weft`, not `~/.weft`).
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { encodeAddress } from '../../src/crypto/address.ts';
import { startRpcTestNode, type RpcTestNode } from '../helpers/rpc-node.ts';

const files = ['README.md', ...readdirSync('docs').filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

interface Example {
  readonly where: string;
  readonly text: string;
  readonly json: Record<string, unknown>;
}

/**
 * Not requests: answers (a `result` or `error`, which may name a method inside), server-to-client notifications,
 * and the HMAC signing input (docs/auth.md, with its `timestamp`).
 */
const notRequests = (json: Record<string, unknown>): boolean =>
  'result' in json || 'error' in json || ['subscription', 'StreamClosed'].includes(String(json.method)) || 'timestamp' in json;

function requestExamples(): Example[] {
  const found: Example[] = [];
  for (const file of files) {
    const lines = readFileSync(file, 'utf8').split('\n');
    let fenced = false;
    lines.forEach((line, i) => {
      if (line.startsWith('```')) fenced = !fenced;
      const candidates = fenced ? [line.trim()] : [...line.matchAll(/`(\{[^`]*\})`/g)].map((m) => m[1]!);
      for (const text of candidates) {
        if (!text.startsWith('{') || !text.includes('"method"')) continue;
        let json: Record<string, unknown>;
        try {
          json = JSON.parse(text) as Record<string, unknown>;
        } catch {
          continue; // a shape with "…" in place of values, not an example
        }
        if (!notRequests(json)) found.push({ where: `${file}:${i + 1}`, text, json });
      }
    });
  }
  return found;
}

const examples = requestExamples();
const wsOnly = new Set(['subscribe', 'unsubscribe']);
let t: RpcTestNode;
let substitutes: Record<string, string>;

beforeAll(async () => {
  t = await startRpcTestNode([], false);
  const address = (await t.rpc('create_address', {})).body.result.address as string;
  const tip = t.node.chain.selectedTip();
  substitutes = { 'rweft1zq…': encodeAddress('rweft', Uint8Array.of(0x10, ...new Uint8Array(32).fill(7))), 'rweft1…': address, '0x…': `0x${tip.id}` };
}, 60_000);
afterAll(() => t?.close());

/** The example with its placeholders filled in (longest first, so `rweft1zq…` is a contract address). */
const filled = (text: string): string => Object.entries(substitutes).reduce((s, [from, to]) => s.split(from).join(to), text);

describe('JSON-RPC examples in the docs', () => {
  it('are found (the extractor reads the docs it is meant to)', () => {
    expect(examples.map((e) => e.json.method)).toEqual(expect.arrayContaining(['get_network_info', 'get_block', 'send_transaction', 'call_smart_contract', 'subscribe', 'unsubscribe']));
  });

  it.each(examples.map((e) => [e.where, e] as const))('%s is a whole JSON-RPC 2.0 request', (_, example) => {
    expect(example.json.jsonrpc, example.text).toBe('2.0');
    expect('id' in example.json, `${example.text} has no id`).toBe(true);
  });

  it.each(examples.filter((e) => !wsOnly.has(String(e.json.method))).map((e) => [e.where, e] as const))('%s runs over HTTP', async (_, example) => {
    const answer = await t.post('/api/v1/rpc', filled(example.text));
    expect(answer.body, answer.text).toBeDefined();
    expect([-32600, -32601, -32602], `${example.where}: ${answer.text}`).not.toContain(answer.body.error?.code);
  });

  it('the WebSocket examples run in order over the WebSocket', async () => {
    const ws = new WebSocket(`ws://127.0.0.1:${t.node.api.wsPort}/`);
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    try {
      for (const example of examples.filter((e) => wsOnly.has(String(e.json.method)))) {
        const reply = new Promise<Record<string, any>>((resolve) => ws.on('message', function onMessage(data) {
          const message = JSON.parse(String(data)) as Record<string, any>;
          if (message.method === 'subscription') return; // a notification, not the answer
          ws.off('message', onMessage);
          resolve(message);
        }));
        ws.send(filled(example.text));
        const answer = await reply;
        expect(answer.error, `${example.where}: ${JSON.stringify(answer)}`).toBeUndefined();
        expect(answer.id).toEqual(example.json.id);
      }
    } finally {
      ws.close();
    }
  });
});

describe('what the docs tell people', () => {
  it('read the API key where the node writes it (./.weft/<network>, not ~/.weft)', () => {
    for (const file of files) expect(readFileSync(file, 'utf8'), file).not.toMatch(/~\/\.weft/);
  });

  it('call / the web app and /status the status page', async () => {
    const readme = readFileSync('README.md', 'utf8');
    expect(readme).not.toMatch(/status page at http:\/\/localhost:8080\/(?!status)/);
    expect(readme).toMatch(/http:\/\/localhost:8080\/status/);
    expect((await t.get('/status')).text).toContain('<title>Weft node</title>');
  });
});
