// The built-in Weft agent does real chain work through the executor port: block and balance queries against a
// regtest chain, preparing a payment (with the INPUT_REQUIRED round trip), mining a PoW job with the reference
// backend (and canceling one), a Message reply for help, and INPUT_REQUIRED with the list of skills for what it cannot do.
import { beforeAll, describe, expect, it } from 'vitest';
import { createA2aHandler, uuidFromBytes } from '../../../src/a2a/handler.ts';
import type { CallContext } from '../../../src/a2a/handler/state.ts';
import { anonymousPrincipal } from '../../../src/a2a/anonymous.ts';
import { buildAgentCard } from '../../../src/a2a/card.ts';
import { createKvTaskStore } from '../../../src/a2a/task-store.ts';
import { createWeftAgentExecutor, parseRequest, weftAgentSkills } from '../../../src/a2a/weft-agent.ts';
import type { Task } from '../../../src/a2a/types.ts';
import { openChain, type Chain } from '../../../src/chain/chain.ts';
import { signingHash, type UnsignedTransfer } from '../../../src/kinds/transaction-codec.ts';
import { TxKind } from '../../../src/codec/transaction-kinds.ts';
import { regtestParams } from '../../../src/consensus/params.ts';
import { hashMeetsTarget, powHash } from '../../../src/consensus/pow.ts';
import { encodeAddress, standardAddress } from '../../../src/crypto/address.ts';
import { publicKeyFromPrivate } from '../../../src/crypto/keys.ts';
import { createReferencePowBackend } from '../../../src/mining/reference-backend.ts';
import { emptyAccount, type Account } from '../../../src/state/account.ts';
import { createMemoryStore } from '../../../src/storage/memory-store.ts';
import { fromHex, toHash0x, toHex } from '../../../src/util/bytes.ts';
import { createManualClock } from '../../../src/util/clock.ts';
import { makeBlock } from '../../helpers/chain-fixtures.ts';
import { Hono } from 'hono';
import { mountA2a } from '../../../server/a2a/http.ts';
import { createNodeA2aService } from '../../../server/a2a/node-a2a.ts';
import { chainExtensionUri } from '../../../src/a2a/card.ts';

const key = (seed: number) => Uint8Array.from({ length: 32 }, (_, i) => (i * 7 + seed) % 250 + 1);
const a = standardAddress(publicKeyFromPrivate(key(1)));
const b = standardAddress(publicKeyFromPrivate(key(2)));
const hrp = regtestParams.hrp;

let chain: Chain;
let handler: ReturnType<typeof createA2aHandler>;
// An anonymous caller with its own key (docs/a2a.md "Visibility"): its follow-up calls see its tasks.
const ctx: CallContext = { principal: anonymousPrincipal('weft-agent-test-anonymous-key'), extensions: [] };
let n = 0;

const ask = async (parts: object[], extra: object = {}) =>
  (await handler.sendMessage({ message: { messageId: `w-${++n}`, role: 'ROLE_USER', parts, ...extra } }, ctx)) as { task?: Task; message?: { parts: { text?: string }[] } };
const text = (t: string, extra: object = {}) => ask([{ text: t }], extra);
// The answer of record is the data part; a text part sits beside it for chat clients.
const data = (task: Task | undefined) => task!.artifacts!.at(-1)!.parts.filter((p) => p.data !== undefined).at(-1)!.data as Record<string, any>;

beforeAll(async () => {
  const clock = createManualClock(regtestParams.genesis.timestampMs + 3_600_000);
  chain = await openChain({ params: regtestParams, store: createMemoryStore(), clock });
  for (let i = 0; i < 3; i++) await chain.addBlock(makeBlock(chain));
  const balances = new Map<string, Account>([[toHex(a), { balance: 500_000_000n, nonce: 4n, energy: 0n }]]);
  const executor = createWeftAgentExecutor({ chain, accounts: { account: (addr) => balances.get(toHex(addr)) ?? emptyAccount }, pow: createReferencePowBackend() });
  const card = buildAgentCard({
    name: 'Weft',
    description: 'x',
    version: '1',
    streaming: true,
    pushNotifications: false,
    extendedAgentCard: false,
    auth: { required: false },
    skills: weftAgentSkills,
    defaultInputModes: ['text/plain', 'application/json'],
    defaultOutputModes: ['application/json'],
  });
  handler = createA2aHandler({ store: createKvTaskStore(createMemoryStore()), executor, clock, newId: () => uuidFromBytes(crypto.getRandomValues(new Uint8Array(16))), card });
});

describe('built-in Weft agent', () => {
  it('lists its skills with examples for the card', () => {
    expect(weftAgentSkills.map((s) => s.id)).toEqual(['chain-query', 'prepare-payment', 'mine', 'task-status']);
    expect(weftAgentSkills.every((s) => (s.examples?.length ?? 0) > 0)).toBe(true);
  });

  it('answers block queries from the chain (tip, height, hash)', async () => {
    const tip = await text('block tip');
    expect(tip.task!.status.state).toBe('TASK_STATE_COMPLETED');
    expect(data(tip.task)).toMatchObject({ height: 3, hash: toHash0x(chain.selectedTip().hash) });
    const one = data((await text('block 1')).task);
    expect(one.hash).toBe(toHash0x(chain.blockAtHeight(1)!.hash));
    expect(one.previous_hash).toBe(toHash0x(chain.genesis.hash));
    const byHash = data((await ask([{ data: { skill: 'block', block: one.hash } }])).task);
    expect(byHash.height).toBe(1);
    const missing = await text(`block 0x${'00'.repeat(32)}`);
    expect(missing.task!.status.state).toBe('TASK_STATE_FAILED');
  });

  it('answers balances from the account port', async () => {
    const res = await ask([{ data: { skill: 'balance', address: encodeAddress(hrp, a) } }]);
    expect(data(res.task)).toMatchObject({ balance: 5, nonce: 4 });
    expect(data((await text(`balance ${encodeAddress(hrp, b)}`)).task)).toMatchObject({ balance: 0, nonce: 0 });
    expect((await text('balance not-an-address')).task!.status.state).toBe('TASK_STATE_FAILED');
  });

  it('reports a transaction it cannot find as FAILED', async () => {
    const res = await text(`tx 0x${'ab'.repeat(32)}`);
    expect(res.task!.status.state).toBe('TASK_STATE_FAILED');
    expect(res.task!.status.message!.parts[0]!.text).toContain('not found');
  });

  it('prepares a payment: the next nonce and the exact signing hash, after asking for missing input', async () => {
    const first = await text('pay');
    expect(first.task!.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    const done = await text(`1.5 from ${encodeAddress(hrp, a)} to ${encodeAddress(hrp, b)}`, { taskId: first.task!.id });
    expect(done.task!.status.state).toBe('TASK_STATE_COMPLETED');
    const p = data(done.task);
    const tx: UnsignedTransfer = { kind: TxKind.Transfer, chainId: regtestParams.chainId, from: a, to: b, amount: 150_000_000n, fee: 1000n, nonce: 4n, useEnergy: false, memo: new Uint8Array(0) };
    expect(p).toMatchObject({ chain_id: regtestParams.chainId, amount: 1.5, nonce: 4, signing_hash: toHash0x(signingHash(tx)) });
    const broke = await text(`pay 100 from ${encodeAddress(hrp, b)} to ${encodeAddress(hrp, a)}`);
    expect(broke.task!.status.state).toBe('TASK_STATE_FAILED');
  });

  it('mines a job until a nonce meets the target', async () => {
    const prePow = `0x${'11'.repeat(32)}`;
    const target = (1n << 252n) - 1n; // about one nonce in 16 wins
    const res = await text(`mine ${prePow} 0x${target.toString(16)}`);
    expect(res.task!.status.state).toBe('TASK_STATE_COMPLETED');
    const result = data(res.task);
    expect(result.found).toBe(true);
    expect(hashMeetsTarget(powHash(fromHex('11'.repeat(32)), BigInt(result.nonce)), target)).toBe(true);
    expect(result.hash).toBe(toHash0x(powHash(fromHex('11'.repeat(32)), BigInt(result.nonce))));
  });

  it('stops mining when the task is canceled', async () => {
    const res = await handler.sendMessage({ message: { messageId: `w-${++n}`, role: 'ROLE_USER', parts: [{ text: `mine 0x${'22'.repeat(32)} 0x0` }] }, configuration: { returnImmediately: true } }, ctx);
    const id = (res as { task: Task }).task.id;
    const canceled = await handler.cancelTask({ id }, ctx);
    expect(canceled.status.state).toBe('TASK_STATE_CANCELED');
    await new Promise((r) => setTimeout(r, 50));
    expect(handler.runner.running(id)).toBe(false);
    expect((await handler.getTask({ id }, ctx)).status.state).toBe('TASK_STATE_CANCELED');
  });

  it('replies to help with a Message and asks for input, listing what it can do, when it does not understand', async () => {
    const help = await text('help');
    expect(help.message!.parts[0]!.text).toContain('balance <address>');
    const dance = await text('dance');
    expect(dance.task!.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(dance.task!.status.message!.parts[0]!.text).toContain('what is the balance of <address>');
  });
});

describe('the node’s A2A service (createNodeA2aService)', () => {
  it('serves the Weft agent’s card with the chain extension and answers a chain query over JSON-RPC', async () => {
    const service = await createNodeA2aService({ chain, kv: createMemoryStore(), baseUrl: 'http://127.0.0.1:8080', network: 'regtest', version: '0.1.0' });
    const app = new Hono();
    mountA2a(app, service);
    const card = await (await app.request('/.well-known/agent-card.json')).json();
    expect(card.skills.map((s: { id: string }) => s.id)).toEqual(['chain-query', 'prepare-payment', 'mine', 'task-status']);
    expect(card.capabilities.extensions[0].uri).toBe(chainExtensionUri);
    expect(card.capabilities.extensions[0].params.chainSignatureSecurityScheme.chainId).toBe(regtestParams.chainId);
    const res = await app.request('/a2a', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'SendMessage', params: { message: { messageId: 'n1', role: 'user', parts: [{ text: 'block tip' }] } } }),
    });
    const task = (await res.json()).result.task;
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(task.artifacts[0].parts[0].data.height).toBe(chain.selectedTip().height);
    service.close();
  });
});

describe('plain requests (the intent grammar, docs/a2a.md)', () => {
  const addrA = () => encodeAddress(hrp, a);
  const addrB = () => encodeAddress(hrp, b);

  it('maps plain phrasings onto the skills', () => {
    const cases: [string, Record<string, unknown>][] = [
      [`what is the balance of ${addrA()}?`, { skill: 'balance', address: addrA() }],
      [`How much is the balance for ${addrA()}`, { skill: 'balance', address: addrA() }],
      [`send 5 to ${addrB()}`, { skill: 'pay', amount: 5, to: addrB(), from: undefined }],
      [`please transfer 2.5 coins to ${addrB()} from ${addrA()} fee 0.1`, { skill: 'pay', amount: 2.5, to: addrB(), from: addrA(), fee: 0.1 }],
      ['status of task 6f1c-42', { skill: 'task', id: '6f1c-42' }],
      ["what's the status of task abc?", { skill: 'task', id: 'abc' }],
      ['block height', { skill: 'block', block: 'tip' }],
      ['what is the current block height?', { skill: 'block', block: 'tip' }],
      ['block at height 7', { skill: 'block', block: '7' }],
      [`status of transaction 0x${'ab'.repeat(32)}`, { skill: 'tx', hash: `0x${'ab'.repeat(32)}` }],
      [addrA(), { skill: 'balance', address: addrA() }],
      ['what can you do?', { skill: 'help' }],
    ];
    for (const [said, expected] of cases) expect(parseRequest(said), said).toEqual(expected);
  });

  it('answers "what is the balance of <address>" and "block height"', async () => {
    expect(data((await text(`what is the balance of ${addrA()}?`)).task)).toMatchObject({ address: addrA(), balance: 5 });
    const height = await text('block height');
    expect(height.task!.status.state).toBe('TASK_STATE_COMPLETED');
    expect(data(height.task)).toMatchObject({ height: chain.selectedTip().height });
  });

  it('"send 2 to <address>" asks for the sender, and the follow-up completes the payment', async () => {
    const first = await text(`send 2 to ${addrB()}`);
    expect(first.task!.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    const done = await text(`from ${addrA()}`, { taskId: first.task!.id });
    expect(done.task!.status.state).toBe('TASK_STATE_COMPLETED');
    expect(data(done.task)).toMatchObject({ from: addrA(), to: addrB(), amount: 2, nonce: 4 });
  });

  it('"status of task <id>" reports the caller’s own task, and never another principal’s', async () => {
    const waiting = await text('pay');
    const id = waiting.task!.id;
    const status = await text(`status of task ${id}`);
    expect(status.task!.status.state).toBe('TASK_STATE_COMPLETED');
    expect(data(status.task)).toMatchObject({ id, state: 'TASK_STATE_INPUT_REQUIRED' });
    const stranger: CallContext = { principal: { id: 'apikey:someone-else', scheme: 'apiKey', scopes: [] }, extensions: [] };
    const theirs = (await handler.sendMessage({ message: { messageId: `w-${++n}`, role: 'ROLE_USER', parts: [{ text: `status of task ${id}` }] } }, stranger)) as { task: Task };
    expect(theirs.task.status.state).toBe('TASK_STATE_FAILED');
    expect(theirs.task.status.message!.parts[0]!.text).toContain('not found');
  });

  it('does not read "task" inside a sentence as a task lookup: the TCK\'s prerequisite message gets a helpful answer', async () => {
    expect(parseRequest('TCK prerequisite task creation')).toEqual({ skill: 'unknown', text: 'TCK prerequisite task creation' });
    expect(parseRequest('create a task for me')).toMatchObject({ skill: 'unknown' });
    expect(parseRequest('task 6f1c-42')).toEqual({ skill: 'task', id: '6f1c-42' });
    const created = await text('TCK prerequisite task creation');
    expect(created.task!.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(created.task!.status.message!.parts[0]!.text).toContain('I can:');
  });

  it('answers with a text part beside the data part, for chat clients', async () => {
    const answered = await text(`what is the balance of ${addrA()}?`);
    const parts = answered.task!.artifacts!.at(-1)!.parts;
    expect(parts.map((p) => (p.data !== undefined ? 'data' : p.text !== undefined ? 'text' : '?'))).toEqual(['data', 'text']);
    expect(parts[1]).toMatchObject({ mediaType: 'text/plain' });
    expect(parts[1]!.text).toContain(`address: ${addrA()}`);
    expect(parts[1]!.text).toContain('balance: 5');
  });

  it('anything else gets INPUT_REQUIRED listing what it can do, and a reply on that task is understood', async () => {
    const puzzled = await text('make me a sandwich');
    expect(puzzled.task!.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    const said = puzzled.task!.status.message!.parts[0]!.text!;
    expect(said).toContain('I did not understand "make me a sandwich"');
    for (const skill of ['balance', 'block height', 'send 5 to', 'status of task', 'mine']) expect(said).toContain(skill);
    const still = await text('and a coffee', { taskId: puzzled.task!.id });
    expect(still.task!.status.state).toBe('TASK_STATE_INPUT_REQUIRED'); // asks again, on the same task
    const answered = await text('block height', { taskId: puzzled.task!.id });
    expect(answered.task!.status.state).toBe('TASK_STATE_COMPLETED');
    expect(answered.task!.id).toBe(puzzled.task!.id);
  });
});
