// The recipes of docs/architecture.md ("Adding a transaction kind / an RPC method / a P2P message / an explorer
// page") name files that exist, and what each recipe promises holds: a throw-away RPC method added the documented
// way is served by the real dispatcher with its params parsed and its scope checked; a throw-away P2P message added
// the documented way (one codec module, one table line) is framed, capped and dispatched by the generic codec, every
// P2P message is a row of docs/p2p.md's table and a type an old node does not know is ignored, not fatal; every explorer route is named in
// docs/web.md. The kind recipe is performed end to end by test/integration/kinds/kinds-extension.test.ts (a throw-away kind through a
// real node), which the recipe cites.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { z } from 'zod';
import { beforeAll, describe, expect, it } from 'vitest';
import { regenerateProto } from '../../server/grpc/generate-proto.ts';
import { nodeProtoPath } from '../../server/grpc/grpc-server.ts';
import type { Identity } from '../../src/auth/identity.ts';
import { openChain, type Chain } from '../../src/chain/chain.ts';
import { regtestParams } from '../../src/consensus/params.ts';
import {
  decodeMessage, decodeMessageWith, encodeMessage, encodeMessageWith, indexMessageCodecs, messageCodecs, MessageType, messagePayloadBytesMax,
} from '../../src/p2p/messages.ts';
import type { MessageCodec } from '../../src/p2p/messages/message-codec.ts';
import { MessageMalformedError, MessageOverCapError } from '../../src/p2p/protocol-errors.ts';
import { createDispatcher, type Dispatcher } from '../../src/rpc/dispatcher.ts';
import { defineMethod } from '../../src/rpc/method.ts';
import { rpcMethods } from '../../src/rpc/method-table.ts';
import { createMemoryStore } from '../../src/storage/memory-store.ts';
import { systemClock } from '../../src/util/clock.ts';
import { repoRoot } from '../vectors.ts';
import { markdownTable, pathsNamed, readDoc } from './markdown.ts';

const architecture = readDoc('docs/architecture.md');

/** The text of one `### <title>` section of docs/architecture.md. */
function recipe(title: string): string {
  const start = architecture.indexOf(`### ${title}\n`);
  if (start < 0) throw new Error(`docs/architecture.md has no "### ${title}"`);
  const next = architecture.slice(start + 4).search(/\n#{2,3} /);
  return next < 0 ? architecture.slice(start) : architecture.slice(start, start + 4 + next);
}

describe.each([
  ['Adding a transaction kind', ['src/kinds/registry.ts', 'src/codec/transaction-kinds.ts', 'test/integration/kinds/kinds-extension.test.ts']],
  ['Adding an RPC method', ['src/rpc/method-table.ts', 'src/rpc/methods/send-transaction.ts', 'server/grpc/generate-proto.ts']],
  ['Adding a P2P message', ['src/p2p/messages/message-codec.ts', 'src/p2p/messages.ts', 'src/p2p/node/dispatch.ts', 'test/integration/p2p/p2p-messages.test.ts']],
  ['Adding an explorer page', ['web/explorer/detail.ts', 'web/explorer/page-context.ts', 'e2e/explorer-pages.spec.ts']],
])('recipe "%s"', (title, mustName) => {
  it('names the files to touch, and they exist', () => {
    const named = pathsNamed(recipe(title)).map((p) => p.path);
    for (const path of mustName) expect(named, `the recipe names ${path}`).toContain(path);
    for (const path of named) expect(existsSync(join(repoRoot, path)), `${path} exists`).toBe(true);
  });
});

describe('recipe: adding an RPC method, performed on a throw-away method', () => {
  // Step 1: one declarative file (here, inline). Step 2: one line in the table (here, the dispatcher's list).
  const echoTip = defineMethod({
    name: 'test_echo_tip',
    summary: 'A throw-away method: echoes its text beside the selected tip height.',
    params: z.strictObject({ text: z.string().max(16) }),
    scope: 'read_balance',
    result: z.object({ text: z.string(), height: z.int() }),
    run: (params, ctx) => ({ text: params.text, height: ctx.services.chain.selectedTip().height }),
  });
  let chain: Chain;
  let dispatcher: Dispatcher;
  const reader: Identity = { tier: 'api_key', id: 'key:reader', scopes: new Set(['read_balance']), admin: false };
  const stranger: Identity = { tier: 'api_key', id: 'key:stranger', scopes: new Set(), admin: false };
  const call = async (params: unknown, identity: Identity) =>
    (await dispatcher.dispatch({ jsonrpc: '2.0', method: 'test_echo_tip', params, id: 1 }, { transport: 'http', identity })).answer;

  beforeAll(async () => {
    chain = await openChain({ params: regtestParams, store: createMemoryStore(), clock: systemClock });
    dispatcher = createDispatcher({
      services: { chain, node: { version: 't', startedAtMs: 0, clock: systemClock, synced: () => true } },
      version: 't',
      methods: [...rpcMethods, echoTip],
    });
  });

  it('is served by the real dispatcher with its params parsed once', async () => {
    expect(await call({ text: 'hi' }, reader)).toEqual({ jsonrpc: '2.0', result: { text: 'hi', height: 0 }, id: 1 });
    expect(await call({ text: 'x'.repeat(17) }, reader)).toMatchObject({ error: { code: -32602 }, id: 1 });
    expect(await call({ text: 'hi', extra: 1 }, reader)).toMatchObject({ error: { code: -32602 } });
  });

  it('has its declared scope checked by the dispatcher, not by the method', async () => {
    expect(await call({ text: 'hi' }, stranger)).toMatchObject({ error: { code: -32002 } });
  });

  it('appears in rpc.discover and in the regenerated gRPC proto', async () => {
    const answer = (await dispatcher.dispatch({ jsonrpc: '2.0', method: 'rpc.discover', id: 2 }, { transport: 'http' })).answer as { result: { methods: { name: string }[] } };
    expect(answer.result.methods.map((m) => m.name)).toContain('test_echo_tip');
    expect(regenerateProto(readFileSync(nodeProtoPath, 'utf8'), [...rpcMethods, echoTip])).toContain('rpc TestEchoTip(JsonParams) returns (JsonResult);');
  });
});

describe('recipe: adding a P2P message', () => {
  const rows = markdownTable(readDoc('docs/p2p.md'), ['id', 'message', 'payload', 'cap']);
  /** `| 0x07 / 0x08 / 0x09 | inv / getdata / notfound |` → [[0x07, 'inv'], …]. */
  const documented = rows.flatMap(([ids, names]) => {
    const codes = ids!.split('/').map((s) => Number.parseInt(s.trim(), 16));
    const words = names!.split('/').map((s) => s.trim());
    expect(codes.length, `row ${ids}`).toBe(words.length);
    return codes.map((code, i) => [code, words[i]!] as const);
  });

  it('docs/p2p.md "Messages" lists every message type with its code, and no other', () => {
    const sortByCode = (a: readonly [number, string], b: readonly [number, string]) => a[0] - b[0];
    expect([...documented].sort(sortByCode)).toEqual(Object.entries(MessageType).map(([name, code]) => [code, name] as const).sort(sortByCode));
  });

  it('gives every type a byte cap (0 for a type with no payload)', () => {
    for (const name of Object.keys(MessageType)) expect(messagePayloadBytesMax[name as keyof typeof MessageType], name).toBeGreaterThanOrEqual(0);
  });

  it('lets a node that does not know a new type ignore it instead of failing the session', () => {
    const used = new Set<number>(Object.values(MessageType));
    const free = [...Array(256).keys()].find((code) => code > 0 && !used.has(code))!;
    expect(decodeMessage(Uint8Array.of(free, 1, 2, 3))).toEqual({ type: 'unknown', code: free });
    expect(decodeMessage(encodeMessage({ type: 'ping', nonce: 7n }))).toEqual({ type: 'ping', nonce: 7n });
  });
});

describe('recipe: adding a P2P message, performed on a throw-away message', () => {
  // Step 1: one module (here, inline): its code, its payload's byte cap, its reader and writer. Step 2: one line in
  // the table (here, the built-in table and it, indexed as messages.ts indexes its own).
  const used = new Set<number>(Object.values(MessageType));
  const code = [...Array(256).keys()].find((c) => c > 0 && !used.has(c))!;
  const echo: MessageCodec<{ readonly type: 'echo'; readonly text: Uint8Array }> = {
    type: 'echo',
    code,
    payloadBytesMax: 1 + 16,
    write: (w, m) => w.lengthPrefixed(m.text, 16, 'echo text'),
    read: (r) => ({ type: 'echo', text: r.lengthPrefixed(16, 'echo text') }),
  };
  const table = indexMessageCodecs([...messageCodecs, echo]);

  it('is framed with its type byte and decoded back by the generic dispatch', () => {
    const bytes = encodeMessageWith(table, { type: 'echo', text: Uint8Array.of(1, 2, 3) });
    expect([...bytes]).toEqual([code, 3, 1, 2, 3]);
    expect(decodeMessageWith(table, bytes)).toEqual({ type: 'echo', text: Uint8Array.of(1, 2, 3) });
  });

  it('has its byte cap checked before its payload is parsed, and trailing bytes refused', () => {
    expect(() => decodeMessageWith(table, new Uint8Array(1 + 18).fill(code, 0, 1))).toThrow(MessageOverCapError);
    expect(() => decodeMessageWith(table, Uint8Array.of(code, 1, 9, 9))).toThrow(MessageMalformedError);
  });

  it('leaves every built-in message as it was, and a node without the line ignores it', () => {
    expect(encodeMessageWith(table, { type: 'ping', nonce: 7n })).toEqual(encodeMessage({ type: 'ping', nonce: 7n }));
    expect(decodeMessage(Uint8Array.of(code, 0))).toEqual({ type: 'unknown', code });
  });

  it('cannot take a code or a name the table already has', () => {
    expect(() => indexMessageCodecs([...messageCodecs, { ...echo, code: MessageType.ping }])).toThrow(/taken by ping/);
    expect(() => indexMessageCodecs([...messageCodecs, { ...echo, type: 'ping' } as never])).toThrow(/name is taken/);
  });
});

describe('recipe: adding an explorer page', () => {
  const detailPath = join(repoRoot, 'web/explorer/detail.ts');
  const detail = readFileSync(detailPath, 'utf8');
  const table = detail.slice(detail.indexOf('const routes = new Map'), detail.indexOf(']);', detail.indexOf('const routes = new Map')));
  const routes = [...table.matchAll(/^\s*\['([a-z-]+)',/gm)].map((m) => m[1]!);

  it('reads the route table', () => {
    expect(routes).toEqual(expect.arrayContaining(['block', 'tx', 'address', 'mempool']));
  });

  it('names every route of the table in docs/web.md', () => {
    const web = readDoc('docs/web.md');
    for (const name of routes) expect(web, `docs/web.md names #/${name}`).toMatch(new RegExp(`#/${name}\\b`));
  });

  it('imports every page module from a file that exists', () => {
    const imports = [...detail.matchAll(/(?:from |import\()'(\.\/[\w-]+\.ts)'/g)].map((m) => resolve(dirname(detailPath), m[1]!));
    expect(imports.length).toBeGreaterThan(5);
    for (const file of imports) expect(existsSync(file), file).toBe(true);
  });
});
