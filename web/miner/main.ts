/**
 * web/miner.html: mines in the tab, for anyone: templates come from get_block_template and found blocks go to
 * submit_block, both public (docs/auth.md "Public work"), over HTTP; the visitor names the reward address (or
 * arrives with `?address=` from the wallet). The template is refreshed on every new block (new_blocks over the WebSocket) and at least
 * every 5 s (mine-session.ts, loaded when mining starts); the hash-rate chart samples once a second.
 * `window.weftMiner` exposes the counters.
 */
import { formatRate, pushBounded, renderLineChart } from '../lib/chart.ts';
import { byId, query } from '../lib/dom.ts';
import { createTabRate } from './tab-rate.ts';
import { createNodeClient, discoverNodeUrls, type NodeUrls } from '../lib/node-client.ts';
import type { MinerCounters, MinerState } from './mine-session.ts';

const chartPointsMax = 60;

declare global { interface Window { weftMiner?: { counters(): MinerCounters } } }

const counters: MinerCounters = { running: false, backend: '', backendReason: '', hashes: 0, found: 0, accepted: 0, hashRate: 0, lastError: null };
window.weftMiner = { counters: () => ({ ...counters }) };
const rates: number[] = [];
const state: MinerState = { counters, stale: true, foundOwn: false, backend: undefined };

function showError(message: string | null): void {
  counters.lastError = message;
  byId('miner-error').hidden = message === null;
  byId('miner-error').textContent = message ?? '';
}

async function start(urls: NodeUrls): Promise<void> {
  const address = byId<HTMLInputElement>('miner-address').value.trim();
  if (address === '') return showError('Enter the address that receives the rewards (your wallet’s receive address).');
  localStorage.setItem('weft-miner-address', address);
  const choice = byId<HTMLSelectElement>('backend').value;
  const threads = Math.max(1, Math.min(64, Number(byId<HTMLInputElement>('threads').value) || 1));
  showError(null);
  byId('m-backend-why').textContent = choice === 'auto' ? 'auto: choosing…' : '';
  let session: typeof import('./mine-session.ts');
  let opened: Awaited<ReturnType<typeof session.openBackend>>;
  try {
    session = await import('./mine-session.ts');
    opened = await session.openBackend(choice, threads);
  } catch (error) {
    byId('m-backend-why').textContent = '';
    return showError(`Cannot start ${choice}: ${(error as Error).message}`);
  }
  const { backend, reason } = opened;
  state.backend = backend;
  counters.running = true;
  counters.backend = backend.name;
  counters.backendReason = reason;
  byId('m-backend').textContent = backend.name;
  byId('m-backend-why').textContent = reason;
  byId('m-state').textContent = 'mining';
  byId<HTMLButtonElement>('start').disabled = true;
  byId<HTMLButtonElement>('stop').disabled = false;
  session.mineLoop(urls, address, state).catch((error: unknown) => showError(`Mining stopped: ${(error as Error).message}`)).finally(stop);
}

function stop(): void {
  counters.running = false;
  state.backend?.close();
  state.backend = undefined;
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
  await client.subscribe('new_blocks', () => (state.stale = true));
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
