// A real `weft node` process against a misbehaving peer speaking the protocol over TCP: bad PoW, malformed and
// garbage frames, oversized messages and a flood of orphans get it disconnected (banned where the rule says so),
// while the node keeps its chain and keeps serving /health. Also: the browser bridge at ws://…/p2p speaks the same
// protocol, and the node's identity and ban list survive a restart.
import { mkdtempSync, rmSync, statSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { Chain } from '../../../../src/chain/chain.ts';
import type { Block } from '../../../../src/codec/block.ts';
import { regtestParams } from '../../../../src/consensus/params.ts';
import { P2pErrorCode } from '../../../../src/p2p/errors.ts';
import { MessageType } from '../../../../src/p2p/messages.ts';
import { toHex } from '../../../../src/util/bytes.ts';
import { dialTcp } from '../../../../server/p2p/tcp-port.ts';
import { webSocketPort } from '../../../../server/p2p/ws-bridge.ts';
import { makeBlock } from '../../../helpers/chain-fixtures.ts';
import { connectHarness, newStaticKey, versionFor, versionOfChain } from '../../../helpers/p2p-harness.ts';
import { chainWith } from '../../../helpers/p2p-memory-net.ts';
import type { LogLine } from '../../../helpers/node-process.ts';
import { startP2pProcess, type P2pProcess } from '../../../helpers/p2p-process.ts';
import { buildDatadir, extendChain, regtestBlocks } from '../../../helpers/regtest-dag.ts';

const dirs: string[] = [];
let node: P2pProcess;
let blocks: Block[];
let chain: Chain;
let tipBefore: unknown;

beforeAll(async () => {
  blocks = (await regtestBlocks(1_500)).slice(0, 30);
  const datadir = mkdtempSync(join(tmpdir(), 'weft-p2p-peers-'));
  dirs.push(datadir);
  await buildDatadir(datadir, blocks);
  chain = await chainWith(blocks);
  node = await startP2pProcess(datadir);
  tipBefore = (await node.health()).tip_hash;
}, 120_000);
afterAll(async () => {
  await node?.stop();
  dirs.forEach((d) => rmSync(d, { recursive: true, force: true }));
});

const tcp = () => dialTcp('127.0.0.1', node.p2pPort);
const banned = (key: { publicKey: Uint8Array }) => (l: LogLine) => l.event === 'peer_banned' && l.peer === toHex(key.publicKey).slice(0, 16);

async function expectServing(): Promise<void> {
  const health = await node.health();
  expect(health.blocks).toBe(31);
  expect(health.tip_hash).toBe(tipBefore);
}

describe('a misbehaving peer against a node process', () => {
  it('is banned for a block with invalid proof of work; the banned identity is refused afterwards', async () => {
    const key = newStaticKey();
    const h = await connectHarness(await tcp(), { network: 'regtest', version: versionFor(regtestParams), staticKey: key });
    h.send({ type: 'block', block: makeBlock(chain, { grind: false, mutate: (x) => ({ ...x, bits: 0x1d00ffff }) }) });
    await h.closed;
    expect(h.received.find((m) => m.type === 'reject')).toMatchObject({ code: P2pErrorCode.InvalidBlockRelayed, banScore: 100 });
    await node.proc.waitFor(banned(key), 10_000);
    await expect(connectHarness(await tcp(), { network: 'regtest', version: versionFor(regtestParams), staticKey: key })).rejects.toThrow();
    await expectServing();
  }, 30_000);

  it('is banned for a malformed message, only disconnected for frames that fail authentication', async () => {
    const key = newStaticKey();
    const h = await connectHarness(await tcp(), { network: 'regtest', version: versionFor(regtestParams), staticKey: key });
    h.sendRaw(Uint8Array.of(MessageType.headers, 0x01, 0x07)); // one header of two bytes
    await h.closed;
    await node.proc.waitFor(banned(key), 10_000);

    const calmKey = newStaticKey();
    const port = await tcp();
    const g = await connectHarness(port, { network: 'regtest', version: versionFor(regtestParams), staticKey: calmKey });
    port.send(Uint8Array.from([0x00, 0x30, ...Array.from({ length: 48 }, (_, i) => (i * 37) & 0xff)])); // garbage Noise frame
    await g.closed;
    const line = await node.proc.waitFor((l) => l.event === 'peer_disconnected' && l.peer === toHex(calmKey.publicKey).slice(0, 16), 10_000);
    expect(line.code).toBe(P2pErrorCode.DecryptFailed);
    expect(node.proc.lines.some(banned(calmKey))).toBe(false);
    await expectServing();
  }, 30_000);

  it('is banned for a message over the 4 MiB bound and for one over its type cap', async () => {
    const key = newStaticKey();
    const h = await connectHarness(await tcp(), { network: 'regtest', version: versionFor(regtestParams), staticKey: key, messageBytesMax: 8 << 20 });
    h.sendRaw(new Uint8Array(5 << 20).fill(MessageType.tx));
    await h.closed;
    const line = await node.proc.waitFor(banned(key), 10_000);
    expect(line.code).toBe(P2pErrorCode.MessageTooLarge);

    const key2 = newStaticKey();
    const h2 = await connectHarness(await tcp(), { network: 'regtest', version: versionFor(regtestParams), staticKey: key2 });
    h2.sendRaw(Uint8Array.from([MessageType.ping, ...new Uint8Array(64)]));
    await h2.closed;
    expect((await node.proc.waitFor(banned(key2), 10_000)).code).toBe(P2pErrorCode.MessageOverCap);
    await expectServing();
  }, 30_000);

  it('is banned for a flood of unsolicited orphans; the orphan pool stays bounded', async () => {
    const key = newStaticKey();
    const h = await connectHarness(await tcp(), { network: 'regtest', version: versionOfChain(chain), staticKey: key });
    const side = await chainWith(blocks);
    const orphans = await extendChain(side, 80, 11);
    for (const block of orphans.slice(1)) h.send({ type: 'block', block });
    await h.closed;
    expect((await node.proc.waitFor(banned(key), 10_000)).code).toBe(P2pErrorCode.UnsolicitedFlood);
    const health = await node.health();
    expect(health.orphans as number).toBeLessThanOrEqual(32);
    await expectServing();
  }, 30_000);
});

describe('browser bridge and persistence', () => {
  it('speaks the same protocol over WebSocket binary messages at /p2p', async () => {
    const ws = new WebSocket(`ws://127.0.0.1:${node.wsPort}/p2p`);
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    const h = await connectHarness(webSocketPort(ws), { network: 'regtest', version: versionFor(regtestParams) });
    const version = await h.next('version');
    expect(version.bestBlueScore).toBe(chain.selectedTip().header.blueScore);
    h.send({ type: 'getheaders', locator: [chain.genesis.hash], stop: new Uint8Array(32) });
    const page = await h.next('headers');
    expect(page.headers.length).toBeGreaterThanOrEqual(chain.selectedTip().height);
    const peers = (await node.health()).peers as number;
    expect(peers).toBeGreaterThanOrEqual(1);
    h.session.close();
    // Text frames are refused with close code 1003.
    const text = new WebSocket(`ws://127.0.0.1:${node.wsPort}/p2p`);
    await new Promise((resolve) => text.once('open', resolve));
    text.send('hello');
    const code = await new Promise((resolve) => text.once('close', resolve));
    expect(code).toBe(1003);
  }, 30_000);

  it('keeps its NodeID (a 0600 key file) and its bans across a restart', async () => {
    const datadir = dirs[0]!;
    expect(statSync(join(datadir, 'p2p_key')).mode & 0o777).toBe(0o600);
    const before = node.nodeId;
    await node.stop();
    const saved = JSON.parse(readFileSync(join(datadir, 'peers.json'), 'utf8')) as { bans: Array<{ identity: string }> };
    expect(saved.bans.length).toBeGreaterThanOrEqual(5);
    node = await startP2pProcess(datadir);
    expect(node.nodeId).toBe(before);
    const bannedKey = saved.bans.find((b) => b.identity.startsWith('node:'))!;
    expect(bannedKey).toBeDefined();
    await expectServing();
  }, 60_000);
});
