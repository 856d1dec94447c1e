/**
 * Initial-sync throughput (issue #7): a node syncing a regtest DAG of N blocks (default 50,000) from one peer over
 * TCP on loopback — Noise, framing, messages, headers-first download, bodies, validation, LMDB commit — against the
 * same node's local import of the same blocks read from disk (the peer's LMDB store, in stored topological order)
 * through the same chain, measured in the same run. Both paths use the same bound on blocks awaiting their store
 * write (p2pSyncUnsettledBlocksMax) and the Wasm BLAKE3 the node uses. The peer is a real `weft node` process on a
 * copy of the generated datadir. Target: network ≥ 80% of local.
 *
 * The shared dev box swings single runs by ±40%, so the two paths run alternately `rounds` times and the medians
 * are compared; each run also reports blocks per CPU-second of this (the syncing) process, which contention
 * disturbs far less than wall time.
 *
 *   npx tsx bench/sync.ts [blocks=50000] [rounds=3]
 */
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { randomBytes } from 'node:crypto';
import type { Chain } from '../src/chain/chain.ts';
import { chainKeys, storedBlockOrder } from '../src/chain/chain-store.ts';
import { decodeBlock } from '../src/codec/block.ts';
import { regtestParams } from '../src/consensus/params.ts';
import { p2pSyncUnsettledBlocksMax } from '../src/p2p/limits.ts';
import { createP2pNode } from '../src/p2p/p2p-node.ts';
import { x25519Dh } from '../src/p2p/noise/suites.ts';
import { openLedgerChain } from '../src/state/ledger.ts';
import { systemClock } from '../src/util/clock.ts';
import { installWasmBlake3 } from '../server/crypto/wasm-blake3.ts';
import { nodeNoiseSuite } from '../server/p2p/node-crypto-suite.ts';
import { nodeTimer } from '../server/p2p/start-p2p.ts';
import { dialTcp } from '../server/p2p/tcp-port.ts';
import { openLmdbStore } from '../server/storage/lmdb-store.ts';
import { regtestDatadir } from '../test/helpers/regtest-dag.ts';

const total = Number(process.argv[2] ?? 50_000);
const rounds = Number(process.argv[3] ?? 3);

interface Rate {
  readonly wall: number;
  readonly cpu: number;
}

function measure(began: number, cpuBegan: NodeJS.CpuUsage): Rate {
  const seconds = (performance.now() - began) / 1000;
  const cpu = process.cpuUsage(cpuBegan);
  return { wall: total / seconds, cpu: total / ((cpu.user + cpu.system) / 1e6) };
}

async function freshChain(): Promise<{ chain: Chain; close: () => Promise<void>; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'weft-bench-sync-'));
  const store = openLmdbStore(join(dir, 'chain'));
  const { chain } = await openLedgerChain({ params: regtestParams, store, clock: systemClock });
  return { chain, dir, close: async () => { await store.close(); rmSync(dir, { recursive: true, force: true }); } };
}

/** Reads every stored block of `source` in its topological order and imports it, as a node importing from disk. */
async function localImport(source: string): Promise<Rate> {
  const from = openLmdbStore(join(source, 'chain'));
  const { chain, close } = await freshChain();
  const began = performance.now();
  const cpuBegan = process.cpuUsage();
  let unsettled = 0;
  let wake: (() => void) | undefined;
  let first = true;
  for (const { hash } of storedBlockOrder(from)) {
    if (first) { first = false; continue; } // genesis
    const bytes = from.get(chainKeys.block(hash))!;
    while (unsettled >= p2pSyncUnsettledBlocksMax) await new Promise<void>((r) => (wake = r));
    unsettled++;
    chain.addBlock(decodeBlock(bytes)).then(
      () => { if (--unsettled === p2pSyncUnsettledBlocksMax / 2) wake?.(); },
      (error: unknown) => { throw error; },
    );
  }
  await chain.settled();
  const rate = measure(began, cpuBegan);
  if (chain.blockCount() !== total + 1) throw new Error(`local import got ${chain.blockCount() - 1} of ${total}`);
  await from.close();
  await close();
  return rate;
}

/** Starts `weft node` on a copy of the datadir; resolves with its p2p port once it listens. */
async function startPeer(source: string): Promise<{ port: number; stop: () => Promise<void>; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'weft-bench-peer-'));
  cpSync(source, join(dir, 'data'), { recursive: true });
  const child = spawn(process.execPath, [resolve('bin/weft.mjs'), 'node', '--network', 'regtest', '--datadir', join(dir, 'data'), '--rpc-port', '0', '--ws-port', '0', '--p2p-port', '0', '--log-level', 'info'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolvePort, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      try {
        const parsed = JSON.parse(line) as { msg?: string; port?: number };
        if (parsed.msg === 'p2p listening') resolvePort(parsed.port!);
      } catch {
        // not a log line
      }
    });
    child.once('exit', (code) => reject(new Error(`peer exited with ${code}`)));
  });
  return { port, dir, stop: () => new Promise<void>((done) => { child.once('exit', () => done()); child.kill('SIGTERM'); }) };
}

async function networkSync(source: string): Promise<Rate> {
  const peer = await startPeer(source);
  const { chain, close } = await freshChain();
  const node = createP2pNode({
    chain, staticKey: x25519Dh.generateKeyPair((n) => new Uint8Array(randomBytes(n))), clock: systemClock, timer: nodeTimer,
    randomBytes: (n) => new Uint8Array(randomBytes(n)), userAgent: '/weft-bench/', listenPort: 0, dial: dialTcp, suite: nodeNoiseSuite,
  });
  const began = performance.now();
  const cpuBegan = process.cpuUsage();
  await node.connect('127.0.0.1', peer.port, true);
  while (chain.blockCount() < total + 1 || node.syncStatus().state !== 'synced') await new Promise((r) => setTimeout(r, 5));
  await chain.settled();
  const rate = measure(began, cpuBegan);
  await node.close();
  await close();
  await peer.stop();
  rmSync(peer.dir, { recursive: true, force: true });
  return rate;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const show = (r: Rate): string => `${r.wall.toFixed(0)} blocks/s (${r.cpu.toFixed(0)} per CPU-s)`;

console.log(`blake3: ${await installWasmBlake3()}`);
const source = await regtestDatadir(total);
console.log(`source datadir: ${source} (${total} blocks), ${rounds} rounds`);
const locals: Rate[] = [];
const networks: Rate[] = [];
for (let round = 1; round <= rounds; round++) {
  locals.push(await localImport(source));
  networks.push(await networkSync(source));
  console.log(`round ${round}: local import from disk ${show(locals.at(-1)!)}; network sync (TCP loopback, Noise, headers-first) ${show(networks.at(-1)!)}`);
}
const local = { wall: median(locals.map((r) => r.wall)), cpu: median(locals.map((r) => r.cpu)) };
const network = { wall: median(networks.map((r) => r.wall)), cpu: median(networks.map((r) => r.cpu)) };
console.log(`median local import: ${show(local)}`);
console.log(`median network sync: ${show(network)}`);
console.log(`network / local: ${(network.wall / local.wall).toFixed(2)} wall, ${(network.cpu / local.cpu).toFixed(2)} per CPU-second (target ≥ 0.80)`);
