// Regtest DAG fixtures for p2p tests and bench/sync.ts: a block DAG of about one block a second (a sibling pair every
// fourth round, merged by the next block), generated in memory once and cached as encoded bytes under .tmp/, and a
// datadir builder that imports the blocks into LMDB the way a node stores them.
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Chain } from '../../src/chain/chain.ts';
import { openLedgerChain } from '../../src/state/ledger.ts';
import { decodeBlock, encodeBlock, type Block } from '../../src/codec/block.ts';
import { regtestParams } from '../../src/consensus/params.ts';
import { regtestParamsWith } from '../../src/consensus/regtest-overrides.ts';
import { createMemoryStore } from '../../src/storage/memory-store.ts';
import { systemClock } from '../../src/util/clock.ts';
import { openLmdbStore } from '../../server/storage/lmdb-store.ts';
import { installWasmBlake3 } from '../../server/crypto/wasm-blake3.ts';
import { repoRoot } from '../vectors.ts';
import { makeBlock } from './chain-fixtures.ts';

const roundMs = 1_250;

/** Appends `count` blocks to `chain` (rounds of one block, a sibling pair every fourth round). */
export async function extendChain(chain: Chain, count: number, minerTag = 1): Promise<Block[]> {
  const out: Block[] = [];
  let t = chain.selectedTip().header.timestampMs;
  let round = 0;
  while (out.length < count) {
    t += roundMs;
    const tips = chain.tips().map((b) => b.id);
    const width = round++ % 4 === 3 && count - out.length >= 2 ? 2 : 1;
    for (let w = 0; w < width; w++) {
      const block = makeBlock(chain, { parents: tips, timestampMs: t + w, mutate: (h) => ({ ...h, miner: Uint8Array.from({ length: 33 }, (_, i) => (i === 0 ? 0 : (i + minerTag) & 0xff)) }) });
      out.push(block);
      void chain.addBlock(block);
    }
  }
  await chain.settled();
  return out;
}

function readCache(path: string): Block[] {
  const bytes = new Uint8Array(readFileSync(path));
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out: Block[] = [];
  for (let at = 0; at < bytes.length; ) {
    const len = view.getUint32(at, true);
    out.push(decodeBlock(bytes.subarray(at + 4, at + 4 + len)));
    at += 4 + len;
  }
  return out;
}

function writeCache(path: string, blocks: readonly Block[]): void {
  const encoded = blocks.map(encodeBlock);
  const file = new Uint8Array(encoded.reduce((n, b) => n + 4 + b.length, 0));
  const view = new DataView(file.buffer);
  let at = 0;
  for (const b of encoded) {
    view.setUint32(at, b.length, true);
    file.set(b, at + 4);
    at += 4 + b.length;
  }
  writeFileSync(path, file);
}

/** `count` regtest blocks in a topological order, from the cache when present. */
export async function regtestBlocks(count: number): Promise<Block[]> {
  const dir = join(repoRoot, '.tmp');
  const path = join(dir, `p2p-regtest-ledger-${count}.bin`);
  if (existsSync(path)) return readCache(path);
  const { chain } = await openLedgerChain({ params: regtestParams, store: createMemoryStore(), clock: systemClock });
  const blocks = await extendChain(chain, count);
  mkdirSync(dir, { recursive: true });
  writeCache(path, blocks);
  return blocks;
}

/** Imports `blocks` into `<datadir>/chain` (LMDB), as `weft node --datadir` expects; returns blocks/s. */
export async function buildDatadir(datadir: string, blocks: readonly Block[]): Promise<number> {
  mkdirSync(datadir, { recursive: true });
  const store = openLmdbStore(join(datadir, 'chain'));
  const { chain } = await openLedgerChain({ params: regtestParams, store, clock: systemClock });
  const began = performance.now();
  for (const block of blocks) {
    chain.addBlock(block).catch((error: unknown) => {
      throw error;
    });
  }
  await chain.settled();
  const rate = blocks.length / ((performance.now() - began) / 1000);
  if (chain.blockCount() !== blocks.length + 1) throw new Error(`imported ${chain.blockCount() - 1} of ${blocks.length} blocks`);
  await store.flush();
  await store.close();
  return rate;
}

/** Depth overrides for a datadir built as a node running that long would have stored it (docs/storage.md "Pruning"). */
export interface RegtestDatadirOptions {
  readonly pruningDepth?: number;
  readonly finalityDepth?: number;
  readonly mergeDepth?: number;
  /** Keep everything, as `weft node --archive` does; default false: prune below the pruning point while importing. */
  readonly archive?: boolean;
  /** Version 2 headers (level parents, the pruning point), as `--regtest-header-version=2`; default regtest's 1. */
  readonly headerVersion?: 1 | 2;
}

/** The cache name's tail for these options: the depths and archive flag ('' for none, the old name). */
function optionsSuffix(options: RegtestDatadirOptions): string {
  const { pruningDepth, finalityDepth, mergeDepth, archive, headerVersion } = options;
  return [
    headerVersion === 2 ? '-h2' : '',
    pruningDepth === undefined ? '' : `-p${pruningDepth}`,
    finalityDepth === undefined ? '' : `-f${finalityDepth}`,
    mergeDepth === undefined ? '' : `-m${mergeDepth}`,
    archive ? '-archive' : '',
  ].join('');
}

// v2: the store layout with consensus tables (docs/storage.md); an older cached datadir would be replayed at every start.
const datadirPattern = /^p2p-regtest-ledger-datadir-v2-(\d+)(.*)$/;
const datadirName = (count: number, options: RegtestDatadirOptions): string => `p2p-regtest-ledger-datadir-v2-${count}${optionsSuffix(options)}`;

/**
 * The largest cached datadir of the same options with fewer blocks, a multiple of 1,000 (extendChain's rounds
 * restart every 1,000 blocks, so extending it yields the same blocks as building from genesis): long chains
 * (bench/longevity.ts --mainnet-depths) then grow in steps, each step a datadir of its own. The extended store is
 * the one a node that stopped and restarted at that size would hold.
 */
function largestCachedBelow(count: number, options: RegtestDatadirOptions): { dir: string; count: number } | undefined {
  const tmp = join(repoRoot, '.tmp');
  if (!existsSync(tmp)) return undefined;
  const suffix = optionsSuffix(options);
  let best: { dir: string; count: number } | undefined;
  for (const name of readdirSync(tmp)) {
    const match = datadirPattern.exec(name);
    if (!match || match[2] !== suffix) continue;
    const found = Number(match[1]);
    if (found >= count || found % 1_000 !== 0 || !existsSync(join(tmp, name, 'complete'))) continue;
    if (!best || found > best.count) best = { dir: join(tmp, name), count: found };
  }
  return best;
}

/**
 * A regtest datadir holding `count` generated blocks, built once (directly into LMDB, with the Wasm BLAKE3 the
 * node uses) and cached under .tmp/; copy it before starting a node on it. With depth options the chain runs with
 * those depths and prunes as it grows (unless `archive`), and the datadir is closed only once no pruning round is
 * running or owed; start the node with the matching `--regtest-*-depth` flags.
 */
export async function regtestDatadir(count: number, options: RegtestDatadirOptions = {}): Promise<string> {
  const dir = join(repoRoot, '.tmp', datadirName(count, options));
  if (existsSync(join(dir, 'complete'))) return dir;
  rmSync(dir, { recursive: true, force: true });
  const building = `${dir}.building`;
  rmSync(building, { recursive: true, force: true });
  mkdirSync(building, { recursive: true });
  await installWasmBlake3();
  const params = regtestParamsWith(options);
  const start = Object.keys(options).length > 0 ? largestCachedBelow(count, options) : undefined;
  if (start) cpSync(start.dir, building, { recursive: true });
  rmSync(join(building, 'complete'), { force: true });
  const store = openLmdbStore(join(building, 'chain'));
  const { chain } = await openLedgerChain({ params, store, clock: systemClock, archive: options.archive });
  // A running node gets a block a second and its pruner catches up between them; so here between bursts (else
  // LMDB cannot reuse the pages a round frees while the next burst's large transactions run, and the file grows).
  for (let done = start?.count ?? 0; done < count; done += 1_000) {
    await extendChain(chain, Math.min(1_000, count - done));
    await chain.pruningSettled();
  }
  if (chain.blockCount() !== count + 1) throw new Error(`generated ${chain.blockCount() - 1} of ${count} blocks`);
  await chain.pruningSettled();
  await store.flush();
  await store.close();
  writeFileSync(join(building, 'complete'), `${count}\n`);
  renameSync(building, dir);
  return dir;
}
