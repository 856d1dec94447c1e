/**
 * One mining session of the miner page (web/miner/main.ts): a search backend opened (WebGPU or Wasm workers,
 * search-backends.ts) and the loop that asks for templates, searches nonces and submits what it finds. Loaded when
 * the visitor starts mining, not with the page: the codecs, BLAKE3 and the backends are not needed to show it
 * (issue 32, docs/performance.md "Lighthouse").
 */
import { decodeHeader } from '../../src/codec/header.ts';
import { decodeBlock, encodeBlock } from '../../src/codec/block.ts';
import { bytesToBigIntBE, fromHex, toHash0x, toHex } from '../../src/util/bytes.ts';
import { blockHash } from '../../src/consensus/pow.ts';
import { byId, query } from '../lib/dom.ts';
import { getBlockTemplate, submitBlock } from '../../packages/client/src/index.ts';
import { createHttpClient, type NodeUrls } from '../lib/node-client.ts';
import { chooseAutoBackend, openWasmBackend, openWebGpuBackend, type TabBackend } from './search-backends.ts';

const templateRefreshMs = 5_000;
/**
 * A new block makes the template stale, but the tab asks for a new one at most this often: at one block a second a
 * refresh per block would spend most of a visitor's public rate limit (100 calls a minute) on templates alone.
 */
const templateFetchGapMs = 2_000;

interface Template { header: string; pre_pow_hash: string; target: string; difficulty: number; height: number; transactions: string[] }

export interface MinerCounters { running: boolean; backend: string; backendReason: string; hashes: number; found: number; accepted: number; hashRate: number; lastError: string | null }

/** What the page and its session share: the counters it shows, and the flags new blocks set. */
export interface MinerState {
  readonly counters: MinerCounters;
  /** A new block arrived: the template is stale. */
  stale: boolean;
  /** This tab just found a block on the current template. */
  foundOwn: boolean;
  backend: TabBackend | undefined;
}

/** Opens the backend the visitor chose ('auto', 'webgpu' or 'wasm'), and says why it is the one. */
export async function openBackend(choice: string, threads: number): Promise<{ backend: TabBackend; reason: string }> {
  if (choice === 'auto') return chooseAutoBackend(threads);
  if (choice === 'webgpu') return { backend: await openWebGpuBackend(), reason: 'WebGPU, as chosen' };
  return { backend: openWasmBackend(threads), reason: 'Wasm, as chosen' };
}

/** The block bytes: the template's header with our nonce and the template's transactions (src/codec/block.ts). */
function blockBytes(template: Template, nonce: bigint): Uint8Array {
  const header = { ...decodeHeader(fromHex(template.header.slice(2))), nonce };
  return encodeBlock({ header, transactions: template.transactions.map((t) => fromHex(t.slice(2))) });
}

/** Mines until `state.counters.running` is false or the backend is gone. */
export async function mineLoop(urls: NodeUrls, address: string, state: MinerState): Promise<void> {
  const { counters } = state;
  const node = createHttpClient(urls.httpUrl);
  let template: Template | undefined;
  let fetchedAt = 0;
  let nonce = bytesToBigIntBE(crypto.getRandomValues(new Uint8Array(6)));
  while (counters.running && state.backend) {
    const backend = state.backend;
    let age = performance.now() - fetchedAt;
    // After a block of our own the old template is spent (its next winner would only be a sibling of our block):
    // wait out the gap instead of hashing it again. Another miner's block leaves it worth hashing until the gap.
    if (state.foundOwn && age < templateFetchGapMs) {
      await new Promise((resolve) => setTimeout(resolve, templateFetchGapMs - age));
      age = performance.now() - fetchedAt;
    }
    if (!template || state.foundOwn || (state.stale && age >= templateFetchGapMs) || age > templateRefreshMs) {
      state.foundOwn = false;
      template = await getBlockTemplate(node, { miner_address: address, gpu_mining: backend.gpu });
      fetchedAt = performance.now();
      state.stale = false;
      byId('m-difficulty').textContent = String(template.difficulty);
      byId('m-height').textContent = String(template.height);
    }
    const job = { prePowHash: fromHex(template.pre_pow_hash.slice(2)), target: BigInt(template.target), nonceStart: nonce, nonceCount: backend.batchNonces };
    const result = await backend.search(job);
    nonce += BigInt(backend.batchNonces);
    counters.hashes += result.hashes;
    if (result.nonce === null) continue;
    counters.found++;
    const bytes = blockBytes(template, result.nonce);
    const hash = toHash0x(blockHash(decodeBlock(bytes).header));
    const row = document.createElement('tr');
    row.innerHTML = `<td>${template.height}</td><td class="mono"><a href="./index.html#/block/${hash}">${hash}</a></td><td>submitting</td>`;
    query('#found tbody').prepend(row);
    try {
      const answer = await submitBlock(node, { block: `0x${toHex(bytes)}` });
      row.lastElementChild!.textContent = answer.status;
      if (answer.status === 'accepted') counters.accepted++;
    } catch (error) {
      row.lastElementChild!.textContent = `rejected: ${(error as Error).message}`;
    }
    state.foundOwn = true;
  }
}
