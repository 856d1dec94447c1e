// Attack class: a misbehaving P2P peer (issue 30, "a misbehaving peer"; Bitcoin Core's p2p_invalid_block and
// p2p_invalid_tx). A real `weft node` process (regtest, merge depth 3, finality depth 6, ports 0, a temp datadir) is
// fed an honest chain of 24 blocks over the real Noise transport on TCP; then the adversary, in this process, connects as a peer
// and sends every invalid block class — bad proof of work, each header and context rule, unknown, invalid and
// redundant parents, bad merkle and state roots, oversize and over-mass bodies, timestamps in the future and below the
// past median, merge-depth and finality violations, invalid transactions in a block — invalid and non-canonical
// transactions as `tx` messages, and every malformed message class (truncated, trailing bytes, over the type's byte
// cap, oversized counts, an unknown-type flood). For each: the coded refusal (the `reject` message's code and ban
// score, or for score-0 rules a connection that stays up), the ban that follows (a peer_banned log line and a refused
// reconnect), no state change (selected tip, block count, mempool), and at the end an honest peer is still served
// and so is RPC. The classes p2p-peers-process.test.ts already covers (garbage Noise frames, a 5 MiB message, an
// orphan flood) are not repeated.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { escrowClaimKind } from '../../../src/kinds/escrow/escrow-claim.ts';
import { actor, signed } from '../../helpers/agent-fixtures.ts';
import type { Chain } from '../../../src/chain/chain.ts';
import type { Block } from '../../../src/codec/block.ts';
import type { BlockHeader } from '../../../src/codec/header.ts';
import { decodeTransaction, encodeTransaction, signTransfer, txHash } from '../../../src/kinds/transaction-codec.ts';
import { TxKind } from '../../../src/codec/transaction-kinds.ts';
import { blockHash, compactToTarget } from '../../../src/consensus/pow.ts';
import { regtestParamsWith } from '../../../src/consensus/regtest-overrides.ts';
import { contractAddress, encodeAddress } from '../../../src/crypto/address.ts';
import { unitsToCoins } from '../../../src/crypto/amount.ts';
import { signContractCall } from '../../../src/kinds/contract-call.ts';
import { contractTxGasLimitMax } from '../../../src/limits.ts';
import { P2pErrorCode } from '../../../src/p2p/errors.ts';
import { p2pHeadersPerMessageMax, p2pInvItemsMax } from '../../../src/p2p/limits.ts';
import { encodeMessage, MessageType, type Message } from '../../../src/p2p/messages.ts';
import { openLedgerChain } from '../../../src/state/ledger.ts';
import { createMemoryStore } from '../../../src/storage/memory-store.ts';
import { bytesToBigIntBE, compareBytes, concatBytes, toHash0x, toHex } from '../../../src/util/bytes.ts';
import { systemClock } from '../../../src/util/clock.ts';
import { encodeAbiValues } from '../../../src/vm/abi.ts';
import { dialTcp } from '../../../server/p2p/tcp-port.ts';
import { makeBlock } from '../../helpers/chain-fixtures.ts';
import { wallet } from '../../helpers/ledger-fixtures.ts';
import type { LogLine } from '../../helpers/node-process.ts';
import { connectHarness, newStaticKey, versionFor, type Harness } from '../../helpers/p2p-harness.ts';
import { startP2pProcess, type P2pProcess } from '../../helpers/p2p-process.ts';
import { pollFor } from '../../helpers/poll.ts';

const params = regtestParamsWith({ mergeDepth: 3, finalityDepth: 6 });
const flags = ['--regtest-merge-depth', '3', '--regtest-finality-depth', '6', '--rate-limits=false'];
const alice = wallet(1);
const aux = new Uint8Array(32);
/** The escrow_claim's fee: alice's balance covers it, so the balance check passes and the state rule decides. */
const claimFee = 1_000_000n;

let datadir: string;
let node: P2pProcess;
let chain: Chain;
/** The honest chain, in order: index i is at height i + 1. */
const honest: Block[] = [];

interface NodeState {
  readonly tip: string;
  readonly blocks: number;
  readonly mempool: number;
}

async function nodeState(): Promise<NodeState> {
  const health = await node.health();
  const info = await node.rpc('get_info');
  return { tip: health.tip_hash as string, blocks: health.blocks as number, mempool: info.mempool_size as number };
}

const idOf = (block: Block) => toHex(blockHash(block.header));

async function connect(key = newStaticKey()): Promise<Harness & { key: typeof key }> {
  const h = await connectHarness(await dialTcp('127.0.0.1', node.p2pPort), { network: 'regtest', version: versionFor(params), staticKey: key });
  return Object.assign(h, { key });
}

/** Sends blocks the node does not have yet and waits until it holds `count` blocks. */
async function feed(h: Harness, blocks: readonly Block[], count: number): Promise<void> {
  for (const block of blocks) h.send({ type: 'block', block });
  await pollFor(`${count} blocks on the node`, async () => ((await node.health()).blocks === count ? true : undefined), 30_000, 100);
}

/** A ping answered: the node still reads this connection and did not drop it. */
async function stillConnected(h: Harness): Promise<void> {
  const nonce = BigInt(Math.floor(Math.random() * 2 ** 48));
  h.send({ type: 'ping', nonce });
  await h.next('pong', (m) => m.nonce === nonce, 10_000);
}

const banned = (key: { publicKey: Uint8Array }) => (l: LogLine) => l.event === 'peer_banned' && l.peer === toHex(key.publicKey).slice(0, 16);

/**
 * Sends `message` on a fresh connection and expects a ban: a `reject` with `code` and score 100 before the hang-up, a
 * peer_banned line for this identity, the same identity refused on reconnect.
 */
async function expectBanned(message: Message | Uint8Array, code: number, text?: RegExp): Promise<void> {
  const h = await connect();
  if (message instanceof Uint8Array) h.sendRaw(message);
  else h.send(message);
  await h.closed;
  const reject = h.received.find((m) => m.type === 'reject');
  expect(reject, 'a reject before the hang-up').toMatchObject({ type: 'reject', code, banScore: 100 });
  if (text) expect((reject as { text: string }).text).toMatch(text);
  await node.proc.waitFor(banned(h.key), 10_000);
  await expect(connect(h.key)).rejects.toThrow();
}

/** A nonce whose hash misses the target: a block that claims work it did not do. */
function unsolved(header: BlockHeader): BlockHeader {
  const target = compactToTarget(header.bits);
  for (let nonce = 1n; ; nonce++) {
    const candidate = { ...header, nonce };
    if (bytesToBigIntBE(blockHash(candidate)) > target) return candidate;
  }
}

function transferBytes(overrides: { chainId?: number; nonce?: bigint } = {}): Uint8Array {
  const tx = signTransfer({ kind: TxKind.Transfer, chainId: overrides.chainId ?? params.chainId, from: alice.address, to: wallet(2).address, amount: 1n, fee: 1_000n, nonce: overrides.nonce ?? 0n, useEnergy: false, memo: new Uint8Array() }, alice.privateKey, aux);
  return encodeTransaction(tx);
}

const badSignature = (bytes: Uint8Array) => {
  const out = bytes.slice();
  out[out.length - 1]! ^= 0x01;
  return out;
};

beforeAll(async () => {
  datadir = mkdtempSync(join(tmpdir(), 'weft-adversarial-peer-'));
  [node, { chain }] = await Promise.all([startP2pProcess(datadir, flags), openLedgerChain({ params, store: createMemoryStore(), clock: systemClock })]);
  // 24 blocks: enough that a block beside the fourth has more than k = 18 blocks in its anticone (it is red when merged).
  for (let i = 0; i < 24; i++) {
    const block = makeBlock(chain, { parents: [chain.selectedTip().id] });
    expect((await chain.addBlock(block)).status).toBe('accepted');
    honest.push(block);
  }
  const h = await connect();
  for (let from = 0; from < honest.length; from += 10) await feed(h, honest.slice(from, from + 10), 1 + Math.min(honest.length, from + 10));
  h.session.close();
  expect((await node.health()).tip_hash).toBe(toHash0x(chain.selectedTip().hash));
}, 120_000);

afterAll(async () => {
  await node?.stop();
  rmSync(datadir, { recursive: true, force: true });
});

/** A block on the honest tip with one field broken (re-ground so its proof of work holds unless the case breaks it). */
const onTip = (mutate: (h: BlockHeader) => BlockHeader, options: { transactions?: Uint8Array[]; grind?: boolean } = {}): Block =>
  makeBlock(chain, { parents: [chain.selectedTip().id], mutate, ...options });

describe('a misbehaving peer against a weft node process: invalid blocks', () => {
  let before: NodeState;
  beforeAll(async () => {
    before = await nodeState();
  });

  const tip = () => chain.selectedTip();
  const stillAt = async (state: NodeState = before) => expect(await nodeState()).toEqual(state);

  // Each row: a block that breaks one rule; the rule named in the reject; ban score 100.
  const banRows: Array<[string, () => Block, number, RegExp]> = [
    ['bad proof of work', () => { const b = onTip((h) => h, { grind: false }); return { ...b, header: unsolved(b.header) }; }, P2pErrorCode.InvalidBlockRelayed, /pow\.insufficient/],
    ['a redundant parent (an ancestor of another)', () => makeBlock(chain, { parents: [tip().id, idOf(honest[9]!)] }), P2pErrorCode.InvalidBlockRelayed, /context\.parents\.redundant/],
    ['the wrong difficulty bits', () => onTip((h) => ({ ...h, bits: h.bits - 1 })), P2pErrorCode.InvalidBlockRelayed, /context\.bits\.mismatch/],
    ['a timestamp below the past median', () => onTip((h) => ({ ...h, timestampMs: honest[2]!.header.timestampMs })), P2pErrorCode.InvalidBlockRelayed, /context\.timestamp\.too-old/],
    ['a wrong blue score', () => onTip((h) => ({ ...h, blueScore: h.blueScore + 1 })), P2pErrorCode.InvalidBlockRelayed, /context\.blue-score\.mismatch/],
    ['a wrong blue work', () => onTip((h) => ({ ...h, blueWork: h.blueWork + 1n })), P2pErrorCode.InvalidBlockRelayed, /context\.blue-work\.mismatch/],
    ['a wrong DAA score', () => onTip((h) => ({ ...h, daaScore: h.daaScore + 1 })), P2pErrorCode.InvalidBlockRelayed, /context\.daa-score\.mismatch/],
    ['a wrong merkle root', () => onTip((h) => ({ ...h, txRoot: new Uint8Array(32).fill(5) })), P2pErrorCode.InvalidBlockRelayed, /body\.tx-root\.mismatch/],
    ['a wrong state root', () => onTip((h) => ({ ...h, stateRoot: new Uint8Array(32).fill(6) })), P2pErrorCode.InvalidBlockRelayed, /body\.state-root\.mismatch/],
    ['a transaction with a bad signature', () => onTip((h) => h, { transactions: [badSignature(transferBytes())] }), P2pErrorCode.InvalidBlockRelayed, /body\.tx\.invalid.*signa/],
    ['a transaction for another chain', () => onTip((h) => h, { transactions: [transferBytes({ chainId: params.chainId + 1 })] }), P2pErrorCode.InvalidBlockRelayed, /body\.tx\.invalid.*chain/],
    ['a transaction in a non-canonical encoding', () => onTip((h) => h, { transactions: [concatBytes(transferBytes(), Uint8Array.of(0))] }), P2pErrorCode.InvalidBlockRelayed, /body\.tx\.invalid.*decode/],
    ['a body over the mass budget (six 20 M-gas contract calls)', () => onTip((h) => h, { transactions: overMassCalls() }), P2pErrorCode.InvalidBlockRelayed, /body\.mass\.too-large/],
  ];

  it.each(banRows)('%s: coded refusal, ban 100, nothing stored', async (_what, build, code, rule) => {
    await expectBanned({ type: 'block', block: build() }, code, rule);
    await stillAt();
  }, 30_000);

  // Header fields the encoder refuses to write: patched into the bytes of a valid block; the node's decoder refuses
  // them before any validation (MessageMalformed, ban 100).
  const rawRows: Array<[string, () => Uint8Array, number, RegExp]> = [
    ['an unknown header version', () => patched(onTip((h) => h), (b) => void b.set([9, 0], 1)), P2pErrorCode.MessageMalformed, /header\.version/],
    ['an invalid miner address type', () => patched(onTip((h) => ({ ...h, miner: minerMark })), (b) => void (b[indexOf(b, minerMark)] = 7)), P2pErrorCode.MessageMalformed, /miner/],
    ['parents out of order', () => patched(onTip((h) => ({ ...h, parents: [blockHash(tip().header), new Uint8Array(32).fill(0xee)].sort(compareBytes) })), swapFirstParents), P2pErrorCode.MessageMalformed, /parents/],
    ['more parents than a header may name', () => elevenParents(onTip((h) => ({ ...h, parents: Array.from({ length: 10 }, (_, i) => new Uint8Array(32).fill(i + 1)) }))), P2pErrorCode.MessageMalformed, /parents/],
    ['a body over the byte cap (refused before it is parsed)', () => concatBytes(encodeMessage({ type: 'block', block: onTip((h) => h, { transactions: Array.from({ length: 10 }, (_, i) => new Uint8Array(95_000).fill(i)) }) }), new Uint8Array(60_000)), P2pErrorCode.MessageOverCap, /block payload bytes/],
  ];

  it.each(rawRows)('%s: coded refusal, ban 100, nothing stored', async (_what, bytes, code, text) => {
    await expectBanned(bytes(), code, text);
    await stillAt();
  }, 30_000);

  it('a block on a parent the node refused is refused (context.parents.invalid, ban 100)', async () => {
    const invalid = onTip((h) => ({ ...h, stateRoot: new Uint8Array(32).fill(7) }));
    await expectBanned({ type: 'block', block: invalid }, P2pErrorCode.InvalidBlockRelayed, /state-root/);
    const child = onTip((h) => ({ ...h, parents: [blockHash(invalid.header)], blueScore: h.blueScore + 1, daaScore: h.daaScore + 1, timestampMs: h.timestampMs + 1_000 }));
    await expectBanned({ type: 'block', block: child }, P2pErrorCode.InvalidBlockRelayed, /context\.parents\.invalid/);
    await stillAt();
  }, 30_000);

  it('a block on an unknown parent is held as an orphan and its parent asked for; no ban', async () => {
    const h = await connect();
    const unknownParent = new Uint8Array(32).fill(0x5a);
    const orphan = onTip((x) => ({ ...x, parents: [unknownParent] }));
    h.send({ type: 'block', block: orphan });
    const ask = await h.next('getdata', (m) => m.items.some((i) => toHex(i.hash) === toHex(unknownParent)));
    expect(ask.items).toHaveLength(1);
    await stillConnected(h);
    expect(node.proc.lines.some(banned(h.key))).toBe(false);
    const after = await nodeState();
    expect({ tip: after.tip, blocks: after.blocks }).toEqual({ tip: before.tip, blocks: before.blocks });
    h.session.close();
  }, 30_000);

  it('a timestamp too far in the future is refused with score 0: no ban, the connection stays', async () => {
    const h = await connect();
    const future = onTip((x) => ({ ...x, timestampMs: Date.now() + 3_600_000 }));
    h.send({ type: 'block', block: future });
    await stillConnected(h);
    await stillConnected(h);
    expect(h.received.some((m) => m.type === 'reject')).toBe(false);
    expect(node.proc.lines.some(banned(h.key))).toBe(false);
    await stillAt();
    h.session.close();
  }, 30_000);

  it('finality: a lighter side chain below the finality point is kept; its block that would take the selected chain scores 0', async () => {
    const h = await connect();
    // Finality depth 6: a side chain from height 14 (10 below the tip) lacks the finality point. The local chain keeps
    // it while it is lighter and refuses the block that would make it the selected chain: that block goes to the node.
    const side: Block[] = [];
    let refused: Block | undefined;
    let parent = idOf(honest[13]!);
    let timestampMs = honest[13]!.header.timestampMs + 500;
    while (refused === undefined) {
      const block = makeBlock(chain, { parents: [parent], timestampMs: (timestampMs += 1_000) });
      const added = await chain.addBlock(block).then((r) => r.status, (error: unknown) => String(error));
      if (added === 'accepted') {
        side.push(block);
        parent = idOf(block);
      } else {
        expect(added).toMatch(/context\.finality\.violated/);
        refused = block;
      }
    }
    await feed(h, side, before.blocks + side.length);
    const withSide = await nodeState();
    expect(withSide.tip).toBe(before.tip);
    h.send({ type: 'block', block: refused });
    await stillConnected(h);
    await stillConnected(h);
    expect(h.received.some((m) => m.type === 'reject')).toBe(false);
    expect(node.proc.lines.some(banned(h.key))).toBe(false);
    await stillAt(withSide);
    before = withSide;
    h.session.close();
  }, 40_000);

  it('merge depth: merging a red block from below the merge-depth root scores 100', async () => {
    const h = await connect();
    // Merge depth 3: a side block on height 4 is valid (lighter: no finality question) and the node keeps it as a tip ...
    const side = makeBlock(chain, { parents: [idOf(honest[3]!)], timestampMs: honest[3]!.header.timestampMs + 500 });
    expect((await chain.addBlock(side)).status).toBe('accepted');
    await feed(h, [side], before.blocks + 1);
    const withSide = await nodeState();
    expect(withSide.tip).toBe(before.tip);
    h.session.close();
    // ... but a block merging it (red: 20 honest blocks in its anticone, k = 18; not in the future of the merge-depth
    // root, and no blue covers it) breaks the bounded merge depth.
    const merging = makeBlock(chain, { parents: [tip().id, idOf(side)] });
    await expectBanned({ type: 'block', block: merging }, P2pErrorCode.InvalidBlockRelayed, /context\.merge-depth\.violated/);
    await stillAt(withSide);
    before = withSide;
  }, 40_000);
});

const minerMark = Uint8Array.of(0, ...new Uint8Array(32).fill(0xab));

function indexOf(haystack: Uint8Array, needle: Uint8Array): number {
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return i;
  }
  throw new Error('needle not found');
}

/** The block message's bytes with `patch` applied (offsets: 0 the type byte, 1–2 the header version, 3 the parent count). */
function patched(block: Block, patch: (bytes: Uint8Array) => void): Uint8Array {
  const bytes = encodeMessage({ type: 'block', block });
  patch(bytes);
  return bytes;
}

function swapFirstParents(bytes: Uint8Array): void {
  const first = bytes.slice(4, 36);
  bytes.copyWithin(4, 36, 68);
  bytes.set(first, 36);
}

/** Ten ascending parents, then an eleventh (all 0xff, the largest) spliced in and the count raised to 11. */
function elevenParents(block: Block): Uint8Array {
  const bytes = encodeMessage({ type: 'block', block });
  const end = 4 + 10 * 32;
  const out = concatBytes(bytes.subarray(0, end), new Uint8Array(32).fill(0xff), bytes.subarray(end));
  out[3] = 11;
  return out;
}

/** Six contract calls at the per-transaction gas cap: each weighs ~400,000 mass, together over the 2,000,000 budget. */
function overMassCalls(): Uint8Array[] {
  return Array.from({ length: 6 }, (_, i) =>
    encodeTransaction(signContractCall({ kind: TxKind.ContractCall, chainId: params.chainId, from: alice.address, nonce: BigInt(i), gasLimit: BigInt(contractTxGasLimitMax), gasPrice: 1n, value: 0n, useEnergy: false, contract: contractAddress(alice.address, 0n), method: 'run', params: encodeAbiValues([]) }, alice.privateKey, aux)),
  );
}

describe('a misbehaving peer: invalid transactions and malformed messages', () => {
  let before: NodeState;
  beforeAll(async () => {
    before = await nodeState();
  });

  it('a tx message in a non-canonical encoding is malformed (ban 100)', async () => {
    await expectBanned({ type: 'tx', tx: concatBytes(transferBytes(), Uint8Array.of(0)) }, P2pErrorCode.MessageMalformed, /does not decode/);
    expect(await nodeState()).toEqual(before);
  }, 30_000);

  // docs/security.md "Hostile peers": what no state can ever make valid (a signature that does not verify, another
  // chain's id) is a peer's fault — every node checks it before relaying — and scores 100; what the state refuses
  // (an escrow that does not exist, a spent nonce) an honest peer relays in good faith while our state lags its own,
  // so it is an anomaly. Alice is funded first, so her transactions pass the balance check and reach the rule tested.
  describe('transactions from a funded sender', () => {
    let observer: Harness;
    beforeAll(async () => {
      const h = await connect();
      const funding = makeBlock(chain, { parents: [chain.selectedTip().id], miner: alice.address });
      expect((await chain.addBlock(funding)).status).toBe('accepted');
      honest.push(funding);
      await feed(h, [funding], before.blocks + 1);
      h.session.close();
      before = await nodeState();
      expect((await node.rpc('get_balance', { address: encodeAddress(params.hrp, alice.address) })).balance).toBeGreaterThan(unitsToCoins(claimFee));
      observer = await connect();
    });
    afterAll(() => observer.session.close());

    /** Whether the observer peer was told of `bytes` (an inv naming its hash) within `ms`. */
    const announced = (bytes: Uint8Array, ms: number) =>
      observer.next('inv', (m) => m.items.some((i) => toHex(i.hash) === toHex(txHash(decodeTransaction(bytes)))), ms).then(() => true, () => false);

    it('an escrow_claim of an escrow that does not exist: refused by the state rules before its signature is checked, not relayed, an anomaly, nothing changed', async () => {
      const claim = encodeTransaction(signed(escrowClaimKind, { escrowId: new Uint8Array(32).fill(9), receipt: undefined }, actor(1), 0n, { fee: claimFee }));
      // What admission answers for these bytes: acceptance's own reason, from the state stage.
      await expect(node.rpc('send_raw_transaction', { transaction: `0x${toHex(claim)}` })).rejects.toThrow(/-40003 .*escrow/);
      const h = await connect();
      h.send({ type: 'tx', tx: claim });
      // The same claim with a broken signature is refused alike, unpunished: the state refused it before any proof
      // was verified (a signature failure scores 100, below).
      h.send({ type: 'tx', tx: badSignature(claim) });
      h.send({ type: 'stemtx', hops: 2, tx: claim });
      await stillConnected(h);
      expect(h.received.some((m) => m.type === 'reject')).toBe(false);
      expect(node.proc.lines.some(banned(h.key))).toBe(false);
      expect(await announced(claim, 1_500)).toBe(false);
      expect(await nodeState()).toEqual(before);
      h.session.close();
    }, 30_000);

    const invalidRows: Array<[string, () => Uint8Array, RegExp]> = [
      ['a transfer whose signature does not verify', () => badSignature(transferBytes({ nonce: 0n })), /bad_signature|signature/],
      ['a transfer for another chain', () => transferBytes({ chainId: params.chainId + 1 }), /wrong_chain|chain/],
    ];

    it.each(invalidRows)('%s: coded refusal (InvalidTransactionRelayed), ban 100, not relayed, nothing changed', async (_what, bytes, text) => {
      await expectBanned({ type: 'tx', tx: bytes() }, P2pErrorCode.InvalidTransactionRelayed, text);
      expect(await announced(bytes(), 500)).toBe(false);
      expect(await nodeState()).toEqual(before);
    }, 30_000);

    it('the same as a Dandelion stem transaction: ban 100', async () => {
      await expectBanned({ type: 'stemtx', hops: 2, tx: badSignature(transferBytes({ nonce: 0n })) }, P2pErrorCode.InvalidTransactionRelayed, /signature/);
      expect(await nodeState()).toEqual(before);
    }, 30_000);

    it('while a valid transfer from the same sender is admitted and announced to the other peers', async () => {
      const h = await connect();
      const valid = transferBytes({ nonce: 0n });
      h.send({ type: 'tx', tx: valid });
      expect(await announced(valid, 10_000)).toBe(true);
      expect((await nodeState()).mempool).toBe(before.mempool + 1);
      h.session.close();
      before = await nodeState();
    }, 30_000);
  });

  const malformed: Array<[string, () => Uint8Array, number]> = [
    ['a truncated block', () => encodeMessage({ type: 'block', block: honest[0]! }).subarray(0, 100), P2pErrorCode.MessageMalformed],
    ['trailing bytes after a getheaders', () => concatBytes(encodeMessage({ type: 'getheaders', locator: [blockHash(honest[0]!.header)], stop: new Uint8Array(32) }), Uint8Array.of(0)), P2pErrorCode.MessageMalformed],
    ['a ping over its 8-byte cap', () => Uint8Array.from([MessageType.ping, ...new Uint8Array(9)]), P2pErrorCode.MessageOverCap],
    ['an inv claiming one item over its count cap', () => Uint8Array.from([MessageType.inv, ...leb128(p2pInvItemsMax + 1)]), P2pErrorCode.MessageOverCap],
    ['headers claiming one over their count cap', () => Uint8Array.from([MessageType.headers, ...leb128(p2pHeadersPerMessageMax + 1)]), P2pErrorCode.MessageOverCap],
    ['an inventory item of an unknown kind', () => Uint8Array.from([MessageType.getdata, 1, 9, ...new Uint8Array(32)]), P2pErrorCode.MessageMalformed],
    ['an empty message (no type byte)', () => new Uint8Array(0), P2pErrorCode.MessageMalformed],
    ['a second version after the handshake', () => encodeMessage(versionFor(params)), P2pErrorCode.ProtocolViolation],
  ];

  it.each(malformed)('%s: coded refusal and ban 100', async (_what, bytes, code) => {
    await expectBanned(bytes(), code);
    expect(await nodeState()).toEqual(before);
  }, 30_000);

  it('a flood of unknown message types is dropped beyond the anomaly allowance, never answered, never banned', async () => {
    const h = await connect();
    for (let i = 0; i < 1_000; i++) h.sendRaw(Uint8Array.of(0xf0 + (i % 15), i & 0xff));
    await stillConnected(h);
    expect(h.received.some((m) => m.type === 'reject')).toBe(false);
    expect(node.proc.lines.some(banned(h.key))).toBe(false);
    h.session.close();
  }, 30_000);

  it('after all of it, an honest peer is served (headers, a new block accepted) and so is RPC', async () => {
    const h = await connect();
    h.send({ type: 'getheaders', locator: [chain.genesis.hash], stop: new Uint8Array(32) });
    const page = await h.next('headers');
    expect(page.headers.map((x) => toHex(blockHash(x)))).toEqual(expect.arrayContaining(honest.map(idOf)));
    const next = makeBlock(chain, { parents: [chain.selectedTip().id] });
    expect((await chain.addBlock(next)).status).toBe('accepted');
    await feed(h, [next], before.blocks + 1);
    expect((await node.health()).tip_hash).toBe(toHash0x(blockHash(next.header)));
    expect((await node.rpc('get_block_height')).height).toBe(honest.length + 1);
    h.session.close();
  }, 30_000);
});

function leb128(value: number): number[] {
  const out: number[] = [];
  let v = value;
  while (v >= 0x80) {
    out.push((v & 0x7f) | 0x80);
    v = Math.floor(v / 128);
  }
  out.push(v);
  return out;
}
