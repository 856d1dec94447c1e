/**
 * web/miner.html: mines in the tab, for anyone: templates come from get_block_template and found blocks go to
 * submit_block, both public (docs/auth.md "Public work"), over HTTP; the visitor names the reward address (or
 * arrives with `?address=` from the wallet). The template is refreshed on every new block (new_blocks over the WebSocket) and at least
 * every templateRefreshMs; the hash-rate chart samples once a second. `window.weftMiner` exposes the counters.
 */
import { decodeHeader } from '../../src/codec/header.ts';
import { decodeBlock, encodeBlock } from '../../src/codec/block.ts';
import { bytesToBigIntBE, fromHex, toHash0x, toHex } from '../../src/util/bytes.ts';
import { blockHash } from '../../src/consensus/pow.ts';
import { formatRate, pushBounded, renderLineChart } from '../lib/chart.ts';
import { byId, query } from '../lib/dom.ts';
import { createTabRate } from './tab-rate.ts';
import { getBlockTemplate, submitBlock } from '../../packages/client/src/index.ts';
import { createHttpClient, createNodeClient, discoverNodeUrls, type NodeUrls } from '../lib/node-client.ts';
import { chooseAutoBackend, openWasmBackend, openWebGpuBackend, type TabBackend } from './search-backends.ts';

const templateRefreshMs = 5_000;
/**
 * A new block makes the template stale, but the tab asks for a new one at most this often: at one block a second a
 * refresh per block would spend most of a visitor's public rate limit (100 calls a minute) on templates alone.
 */
const templateFetchGapMs = 2_000;
const chartPointsMax = 60;

interface Template { header: string; pre_pow_hash: string; target: string; difficulty: number; height: number; transactions: string[] }
interface MinerCounters { running: boolean; backend: string; backendReason: string; hashes: number; found: number; accepted: number; hashRate: number; lastError: string | null }

declare global { interface Window { weftMiner?: { counters(): MinerCounters } } }

const counters: MinerCounters = { running: false, backend: '', backendReason: '', hashes: 0, found: 0, accepted: 0, hashRate: 0, lastError: null };
window.weftMiner = { counters: () => ({ ...counters }) };
const rates: number[] = [];
let stale = true;
/** This tab just found a block on the current template. */
let foundOwn = false;
let backend: TabBackend | undefined;

function showError(message: string | null): void {
  counters.lastError = message;
  byId('miner-error').hidden = message === null;
  byId('miner-error').textContent = message ?? '';
}

/** The block bytes: the template's header with our nonce and the template's transactions (src/codec/block.ts). */
function blockBytes(template: Template, nonce: bigint): Uint8Array {
  const header = { ...decodeHeader(fromHex(template.header.slice(2))), nonce };
  return encodeBlock({ header, transactions: template.transactions.map((t) => fromHex(t.slice(2))) });
}

async function mineLoop(urls: NodeUrls, address: string): Promise<void> {
  const node = createHttpClient(urls.httpUrl);
  let template: Template | undefined;
  let fetchedAt = 0;
  let nonce = bytesToBigIntBE(crypto.getRandomValues(new Uint8Array(6)));
  while (counters.running && backend) {
    let age = performance.now() - fetchedAt;
    // After a block of our own the old template is spent (its next winner would only be a sibling of our block):
    // wait out the gap instead of hashing it again. Another miner's block leaves it worth hashing until the gap.
    if (foundOwn && age < templateFetchGapMs) {
      await new Promise((resolve) => setTimeout(resolve, templateFetchGapMs - age));
      age = performance.now() - fetchedAt;
    }
    if (!template || foundOwn || (stale && age >= templateFetchGapMs) || age > templateRefreshMs) {
      foundOwn = false;
      template = await getBlockTemplate(node, { miner_address: address, gpu_mining: backend.gpu });
      fetchedAt = performance.now();
      stale = false;
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
    foundOwn = true;
  }
}

async function start(urls: NodeUrls): Promise<void> {
  const address = byId<HTMLInputElement>('miner-address').value.trim();
  if (address === '') return showError('Enter the address that receives the rewards (your wallet’s receive address).');
  localStorage.setItem('weft-miner-address', address);
  const choice = byId<HTMLSelectElement>('backend').value;
  const threads = Math.max(1, Math.min(64, Number(byId<HTMLInputElement>('threads').value) || 1));
  showError(null);
  let reason: string;
  byId('m-backend-why').textContent = choice === 'auto' ? 'auto: choosing…' : '';
  try {
    if (choice === 'auto') ({ backend, reason } = await chooseAutoBackend(threads));
    else if (choice === 'webgpu') (backend = await openWebGpuBackend()), (reason = 'WebGPU, as chosen');
    else (backend = openWasmBackend(threads)), (reason = 'Wasm, as chosen');
  } catch (error) {
    byId('m-backend-why').textContent = '';
    return showError(`Cannot start ${choice}: ${(error as Error).message}`);
  }
  counters.running = true;
  counters.backend = backend.name;
  counters.backendReason = reason;
  byId('m-backend').textContent = backend.name;
  byId('m-backend-why').textContent = reason;
  byId('m-state').textContent = 'mining';
  byId<HTMLButtonElement>('start').disabled = true;
  byId<HTMLButtonElement>('stop').disabled = false;
  mineLoop(urls, address).catch((error: unknown) => showError(`Mining stopped: ${(error as Error).message}`)).finally(stop);
}

function stop(): void {
  counters.running = false;
  backend?.close();
  backend = undefined;
  byId('m-state').textContent = 'stopped';
  byId<HTMLButtonElement>('start').disabled = false;
  byId<HTMLButtonElement>('stop').disabled = true;
}

async function main(): Promise<void> {
  const urls = await discoverNodeUrls(location);
  byId<HTMLInputElement>('miner-address').value = new URLSearchParams(location.search).get('address') ?? localStorage.getItem('weft-miner-address') ?? '';
  byId<HTMLInputElement>('threads').max = String(navigator.hardwareConcurrency || 4);
  byId('start').addEventListener('click', () => void start(urls));
  byId('stop').addEventListener('click', stop);
  const client = createNodeClient(urls.wsUrl);
  await client.subscribe('new_blocks', () => (stale = true));
  const tabRate = createTabRate();
  setInterval(() => {
    counters.hashRate = tabRate.sample(performance.now(), counters.hashes, counters.running);
    pushBounded(rates, counters.hashRate, chartPointsMax);
    renderLineChart(query<SVGSVGElement>('#m-chart'), rates, { format: formatRate, xLabels: [`${rates.length} s ago`, 'now'], title: 'This tab’s hash rate, one point a second' });
    byId('m-rate').textContent = formatRate(counters.hashRate);
    byId('m-rate-v').textContent = formatRate(counters.hashRate);
    byId('m-hashes').textContent = String(counters.hashes);
    byId('m-found').textContent = String(counters.found);
    byId('m-accepted').textContent = String(counters.accepted);
  }, 1000);
}

void main().catch((error: unknown) => showError(`Cannot reach the node: ${(error as Error).message}`));
