/**
 * Header-validation throughput (issue: chain core): a generated DAG of 100,000 blocks, width about 3 (three
 * blocks per round on the same parents, rounds 3 s apart so the DAA stays at the pow limit), imported as encoded
 * bytes through decode → validation (isolation, PoW, context with GHOSTDAG and DAA, body) → LMDB commit.
 * Prints blocks/s for the first and the last 10,000 blocks (the cost per block must not grow with the DAG), and
 * a baseline measured in the same run: the same bytes decoded and written to LMDB with no validation.
 *
 *   npx tsx bench/headers.ts [blocks=100000]       (WEFT_BENCH_NOBLE=1 keeps noble's BLAKE3 instead of the Wasm one)
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openChain } from '../src/chain/chain.ts';
import { blockRows, chainKeys } from '../src/chain/chain-store.ts';
import { u64be } from '../src/consensus/consensus-rows.ts';
import { decodeBlock, encodeBlock } from '../src/codec/block.ts';
import { encodeHeader } from '../src/codec/header.ts';
import { blockHash } from '../src/consensus/pow.ts';
import { createMemoryStore } from '../src/storage/memory-store.ts';
import { createManualClock } from '../src/util/clock.ts';
import { toHex } from '../src/util/bytes.ts';
import { openLmdbStore } from '../server/storage/lmdb-store.ts';
import { installWasmBlake3 } from '../server/crypto/wasm-blake3.ts';
import { easyParams, makeBlock } from '../test/helpers/chain-fixtures.ts';

const total = Number(process.argv[2] ?? 100_000);
const segment = 10_000;
const width = 3;
const params = easyParams();
const farFuture = createManualClock(params.genesis.timestampMs + 10 ** 12);

async function generate(): Promise<Uint8Array[]> {
  const cacheDir = join(process.cwd(), '.tmp');
  const cache = join(cacheDir, `bench-dag-${total}-w${width}.bin`);
  if (existsSync(cache)) {
    const bytes = new Uint8Array(readFileSync(cache));
    const out: Uint8Array[] = [];
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    for (let at = 0; at < bytes.length; ) {
      const len = view.getUint32(at, true);
      out.push(bytes.subarray(at + 4, at + 4 + len));
      at += 4 + len;
    }
    console.log(`loaded ${out.length} blocks from ${cache}`);
    return out;
  }
  const started = performance.now();
  const chain = await openChain({ params, store: createMemoryStore(), clock: farFuture });
  const blocks: Uint8Array[] = [];
  let t = params.genesis.timestampMs;
  while (blocks.length < total) {
    t += 3_000;
    const tips = chain.tips().map((b) => b.id);
    const round = [];
    for (let w = 0; w < width && blocks.length + round.length < total; w++) round.push(makeBlock(chain, { parents: tips, timestampMs: t + w }));
    for (const block of round) {
      void chain.addBlock(block);
      blocks.push(encodeBlock(block));
    }
    if (blocks.length % 20_000 < width) console.log(`generated ${blocks.length}`);
  }
  await chain.settled();
  mkdirSync(cacheDir, { recursive: true });
  const size = blocks.reduce((n, b) => n + 4 + b.length, 0);
  const file = new Uint8Array(size);
  const view = new DataView(file.buffer);
  let at = 0;
  for (const b of blocks) {
    view.setUint32(at, b.length, true);
    file.set(b, at + 4);
    at += 4 + b.length;
  }
  writeFileSync(cache, file);
  console.log(`generated ${blocks.length} blocks in ${((performance.now() - started) / 1000).toFixed(1)} s (cached in ${cache})`);
  return blocks;
}

async function importWithValidation(blocks: readonly Uint8Array[]): Promise<number[]> {
  const dir = mkdtempSync(join(tmpdir(), 'weft-bench-'));
  const store = openLmdbStore(dir);
  const chain = await openChain({ params, store, clock: farFuture });
  const rates: number[] = [];
  for (let from = 0; from < blocks.length; from += segment) {
    const began = performance.now();
    const to = Math.min(blocks.length, from + segment);
    for (let i = from; i < to; i++) {
      const result = chain.addBlock(decodeBlock(blocks[i]!));
      result.catch((e: unknown) => {
        throw e;
      });
    }
    await chain.settled();
    rates.push((to - from) / ((performance.now() - began) / 1000));
  }
  if (chain.blockCount() !== blocks.length + 1) throw new Error(`imported ${chain.blockCount() - 1} of ${blocks.length}`);
  await store.close();
  rmSync(dir, { recursive: true, force: true });
  return rates;
}

/** Baseline: decode, hash and write the same rows to LMDB with no validation and no GHOSTDAG. */
async function importStorageOnly(blocks: readonly Uint8Array[]): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'weft-bench-'));
  const store = openLmdbStore(dir);
  const began = performance.now();
  let pending: Promise<void> = Promise.resolve();
  blocks.forEach((bytes, seq) => {
    const block = decodeBlock(bytes);
    const hash = blockHash(block.header);
    const order = [{ type: 'put', key: chainKeys.order(seq + 1), value: hash }, { type: 'put', key: chainKeys.seq(hash), value: u64be(seq + 1) }] as const;
    pending = store.write([...blockRows(hash, encodeHeader(block.header), bytes), ...order]);
  });
  await pending;
  const rate = blocks.length / ((performance.now() - began) / 1000);
  await store.close();
  rmSync(dir, { recursive: true, force: true });
  return rate;
}

const hashBackend = process.env.WEFT_BENCH_NOBLE ? 'noble' : await installWasmBlake3();
console.log(`blake3 backend: ${hashBackend}`);
const blocks = await generate();
const baseline = await importStorageOnly(blocks);
const rates = await importWithValidation(blocks);
const overall = blocks.length / rates.reduce((s, r) => s + segment / r, 0);
const first = rates[0]!;
const last = rates.at(-1)!;
console.log(`blocks: ${blocks.length}, width ${width}, first parent ${toHex(decodeBlock(blocks[0]!).header.parents[0]!).slice(0, 12)}…`);
console.log(`per-segment blocks/s: ${rates.map((r) => r.toFixed(0)).join(' ')}`);
console.log(`validated import: first ${segment}: ${first.toFixed(0)} blocks/s, last ${segment}: ${last.toFixed(0)} blocks/s, overall ${overall.toFixed(0)} blocks/s (last/first ${(last / first).toFixed(2)})`);
console.log(`baseline (decode + hash + LMDB write, no validation): ${baseline.toFixed(0)} blocks/s; validated/baseline ${(overall / baseline).toFixed(2)}`);
