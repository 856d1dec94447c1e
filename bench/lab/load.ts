/**
 * The lab's transaction load (docs/network.md "Transaction load"): bench/load-generator.ts's pre-signed transfers
 * from funded senders, offered at `txPerS` to random nodes of the lab. The first miner's coinbase key funds up to
 * 64 distributors, each up to 64 senders (the mempool's per-address limit); then transfers of 1 unit go to a sink at
 * a steady rate until the scenario ends. Every node's `pending_transactions` topic gives each transaction's arrival
 * there (propagation), node 0's `confirmed_transactions` its confirmation.
 */
import WebSocket from 'ws';
import { regtestParams } from '../../src/consensus/params.ts';
import { encodeAddress } from '../../src/crypto/address.ts';
import { fanout, fee, transfer, wallet, walletOfKey, type Wallet } from '../load-generator.ts';
import type { LabNode } from './lab-node.ts';
import { labMinerKey } from './miners.ts';

export interface LoadShape {
  /** Transactions offered a second, spread over random nodes. */
  readonly txPerS: number;
  /** Funded senders (≤ 4096); each holds at most 64 transactions in the pool at once. */
  readonly senders: number;
  /**
   * Seconds of mining alone measured for the wire-bytes baseline, from 2 s after mining starts (default 10), and
   * longer until it holds 3 blocks; the funding waits for its end. Too short a window (the funding began a second or
   * two in) over-subtracted.
   */
  readonly baselineS?: number;
  /**
   * A Dandelion++ stem of `hops` (`send_raw_transaction`'s `mixnet_hops`) for a random `share` of the transfers; the
   * rest go with 0 hops, announced at once by the node they reach. Propagation is then reported for each.
   */
  readonly stem?: { readonly share: number; readonly hops: number };
}

/** Link bytes at a moment. */
export interface WireMark {
  readonly atMs: number;
  readonly bytes: number;
}

export interface TxLoad {
  /** Transaction hash → when and where it was submitted, and whether it went by stem. */
  readonly submitted: Map<string, { readonly atMs: number; readonly node: number; readonly stem: boolean }>;
  /** Hash → ms of each node's first sight of it (its pending_transactions topic). */
  readonly seenAt: Map<string, number[]>;
  /** Hash → ms node 0 confirmed it (a chain block accepted it). */
  readonly confirmedAt: Map<string, number>;
  /** Encoded bytes of one load transfer. */
  txBytes: number;
  offerStartedAtMs?: number;
  offerEndedAtMs?: number;
  /** Link bytes over the mining-only baseline window, and when the offering began. */
  baseline?: { readonly from: WireMark; readonly to: WireMark };
  offerWire?: WireMark;
  readonly errors: string[];
  stop(): void;
}

const tickMs = 100;
/** The links' first exchanges after mining starts (templates, first blocks) are left out of the baseline. */
const baselineSettleMs = 2_000;
const baselineSDefault = 10;
/** Poisson mining leaves a 5 s window empty once in 150 runs, and a loaded box's miners slower still. */
const baselineBlocksMin = 3;
const unitsPerCoin = 100_000_000n;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const text = (address: Uint8Array) => encodeAddress(regtestParams.hrp, address);

function subscribe(node: LabNode, topic: string, onHash: (hash: string) => void): WebSocket {
  const socket = new WebSocket(`ws://127.0.0.1:${node.wsPort}/`);
  socket.on('open', () => socket.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'subscribe', params: { topic } })));
  socket.on('error', () => undefined); // a node down for churn: its sightings stop
  socket.on('message', (data) => {
    const message = JSON.parse(data.toString()) as { method?: string; params?: { result?: { hash?: string } } };
    const hash = message.params?.result?.hash;
    if (message.method === 'subscription' && hash !== undefined) onHash(hash);
  });
  return socket;
}

async function balanceUnits(node: LabNode, address: Uint8Array): Promise<bigint> {
  const exact = String((await node.rpc('get_balance', { address: text(address), include_pending: false })).balance_exact);
  const [whole, frac = ''] = exact.split('.');
  return BigInt(whole!) * unitsPerCoin + BigInt(frac.padEnd(8, '0').slice(0, 8));
}

async function untilFunded(node: LabNode, wallets: readonly Wallet[], units: bigint, live: () => boolean): Promise<void> {
  for (;;) {
    if (!live()) throw new Error('load stopped while funding');
    const balances = await Promise.all(wallets.map((w) => balanceUnits(node, w.address)));
    if (balances.every((b) => b >= units)) return;
    await sleep(500);
  }
}

/**
 * Funder → distributors → senders (or funder → senders for fewer than 64), each round confirmed before the next;
 * `began` runs (and is awaited) before the first send.
 */
async function fund(node: LabNode, funder: Wallet, senders: readonly Wallet[], perSender: bigint, live: () => boolean, began: () => Promise<void>): Promise<void> {
  if (senders.length < fanout) {
    // Few senders: the funder pays them directly (one confirmation round instead of two).
    await untilFunded(node, [funder], BigInt(senders.length) * (perSender + fee), live);
    await began();
    for (const s of senders) await node.rpc('send_raw_transaction', { transaction: transfer(funder, s.address, perSender) });
    return untilFunded(node, senders, perSender, live);
  }
  const distributors = Array.from({ length: Math.ceil(senders.length / fanout) }, (_, i) => wallet(1_000_000 + i));
  const perDistributor = BigInt(fanout) * (perSender + fee) + fee;
  await untilFunded(node, [funder], BigInt(distributors.length) * (perDistributor + fee), live);
  await began();
  for (const d of distributors) await node.rpc('send_raw_transaction', { transaction: transfer(funder, d.address, perDistributor) });
  await untilFunded(node, distributors, perDistributor, live);
  for (const [i, s] of senders.entries()) await node.rpc('send_raw_transaction', { transaction: transfer(distributors[Math.floor(i / fanout)]!, s.address, perSender) });
  await untilFunded(node, senders, perSender, live);
}

/** Starts the load: funds from `funderNode`'s miner key, then offers until `endAtMs`. Resolves nothing; read the record. */
export function startLoad(
  nodes: readonly LabNode[], shape: LoadShape, funderNode: number, endAtMs: number, random: () => number,
  counters: { readonly wireBytes: () => number; readonly blocksMined: () => number }, log: (line: string) => void,
): TxLoad {
  const { wireBytes, blocksMined } = counters;
  let live = true;
  const load: TxLoad = { submitted: new Map(), seenAt: new Map(), confirmedAt: new Map(), txBytes: 0, errors: [], stop: () => void (live = false) };
  const sockets = nodes.map((node, i) =>
    subscribe(node, 'pending_transactions', (hash) => {
      const seen = load.seenAt.get(hash) ?? new Array<number>(nodes.length).fill(NaN);
      if (Number.isNaN(seen[i]!)) seen[i] = Date.now();
      load.seenAt.set(hash, seen);
    }),
  );
  sockets.push(subscribe(nodes[0]!, 'confirmed_transactions', (hash) => void (load.confirmedAt.has(hash) || load.confirmedAt.set(hash, Date.now()))));
  const stopAll = load.stop;
  load.stop = () => {
    stopAll();
    for (const s of sockets) s.close();
  };
  const senders = Array.from({ length: shape.senders }, (_, i) => wallet(i));
  const sink = wallet(9_999_998).address;
  const expected = Math.ceil((shape.txPerS * (endAtMs - Date.now())) / 1000);
  const perSender = BigInt(Math.ceil(expected / shape.senders) + 1) * (fee + 1n);
  const mark = (): WireMark => ({ atMs: Date.now(), bytes: wireBytes() });
  void (async () => {
    const funder = walletOfKey(labMinerKey(funderNode));
    await sleep(baselineSettleMs);
    const from = mark();
    const blocksAtFrom = blocksMined();
    const baselineEndMs = from.atMs + (shape.baselineS ?? baselineSDefault) * 1000;
    // The funder's coinbase matures meanwhile: the window costs the offering little time.
    const baselineEnds = async () => {
      while (Date.now() < baselineEndMs || blocksMined() - blocksAtFrom < baselineBlocksMin) {
        if (!live) throw new Error('load stopped during the baseline');
        await sleep(tickMs);
      }
      load.baseline = { from, to: mark() };
    };
    await fund(nodes[funderNode]!, funder, senders, perSender, () => live, baselineEnds);
    // Offered at random nodes: each must hold the funding first, or a node the funding block has not reached yet
    // refuses a sender it sees with no balance (an error of the lab's, not of the node).
    await Promise.all(nodes.filter((n) => n.isRunning()).map((n) => untilFunded(n, senders, perSender, () => live)));
    log(`load: ${shape.senders} senders funded; offering ${shape.txPerS} tx/s`);
    load.offerWire = mark();
    await offer(nodes, shape, senders, sink, endAtMs, random, load, () => live);
  })().catch((error: unknown) => void (live && load.errors.push(`load: ${String(error)}`)));
  return load;
}

async function offer(nodes: readonly LabNode[], shape: LoadShape, senders: readonly Wallet[], sink: Uint8Array, endAtMs: number, random: () => number, load: TxLoad, live: () => boolean): Promise<void> {
  const began = Date.now();
  load.offerStartedAtMs = began;
  let sent = 0;
  const posts: Promise<void>[] = [];
  // Each sender keeps to one node, as a wallet keeps to its own: transfers of one sender spread over both sides of a
  // partition would leave each side a nonce gap that only the other side's pool can fill.
  const home = senders.map(() => Math.floor(random() * nodes.length));
  while (live() && Date.now() < endAtMs) {
    const due = Math.floor((shape.txPerS * (Date.now() - began)) / 1000);
    for (; sent < due; sent++) {
      const senderIndex = sent % senders.length;
      const raw = transfer(senders[senderIndex]!, sink, 1n);
      load.txBytes = (raw.length - 2) / 2;
      const at = nodes.filter((n) => n.isRunning());
      const own = nodes[home[senderIndex]!]!;
      const node = own.isRunning() ? own : at[Math.floor(random() * at.length)]!;
      const stem = shape.stem !== undefined && random() < shape.stem.share;
      const atMs = Date.now();
      posts.push(node.rpc('send_raw_transaction', { transaction: raw, mixnet_hops: stem ? shape.stem!.hops : 0 }).then(
        (r: { hash: string }) => void load.submitted.set(r.hash, { atMs, node: node.index, stem }),
        (error: unknown) => void (live() && load.errors.push(String(error))),
      ));
    }
    await sleep(tickMs);
  }
  load.offerEndedAtMs = Date.now();
  await Promise.all(posts);
}
