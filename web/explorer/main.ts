/**
 * web/index.html: the explorer and the tab's light node. Live lists over the WebSocket (new_blocks,
 * network_stats), statistics and charts from /api/v1/stats and get_mining_stats, the DAG view coloured by the
 * tab's own GHOSTDAG, block / transaction / address pages under #/block/…, #/tx/…, #/address/…, and the search box.
 * `window.weftLight` exposes the light node's status for tests and the benchmark.
 */
import { chartSummary, renderLineChart, pushBounded, formatRate } from '../lib/chart.ts';
import { byId, query, renderKeyedRows } from '../lib/dom.ts';
import { afterDrawnAndIdle } from '../lib/idle.ts';
import { escapeHtml, formatCoins, formatInteger, installCopyButtons, linkHtml, minerHtml, shortHash, timeHtml } from '../lib/format.ts';
import { getBlock, getInfo, getLatestBlock, getMiningStats, type GetInfoReturnType } from '../../packages/client/src/index.ts';
import { createNodeClient, discoverNodeUrls, restGet, retryWhileDisconnected, type ConnectionState, type NodeClient, type NodeUrls } from '../lib/node-client.ts';
import type { LightNode, LightNodeStatus } from '../light/light-node.ts';
import { renderDag, type DagBlock } from './dag-view.ts';
import { renderDetail, routeSearch, showRoute } from './detail.ts';
import { followBlocks } from './follow-blocks.ts';
import { createLatestTransactions, txScanBlocksMax, type TxRow } from './latest-transactions.ts';

/** Rows in the live lists and points on the charts. */
const listRowsMax = 20;
const chartPointsMax = 60;
/** The light node starts once the page is idle, or after this long if it never is. */
const lightStartWaitMsMax = 2_000;
/** Side (non-chain) blocks read by hash at load for the DAG view. */
const sideBlocksMax = 40;
/** get_info and the supply are read again at most this often (a visitor's public rate limit is 100 calls a minute). */
const nodeFiguresEveryMs = 5_000;
/** Blocks drawn in the DAG view. */
const dagBlocksMax = 40;

export interface BlockView {
  height: number; hash: string; previous_hash: string | null; timestamp_ms: number; difficulty: number; transaction_count: number;
  miner: string; gpu_mining: boolean; parent_hashes: string[]; blue_score: number; is_chain_block: boolean;
  transactions?: { hash: string; kind?: string; amount?: number; amount_exact?: string; from?: string; to?: string }[];
}
interface PendingTransaction { hash: string; from: string; to: string; amount: number; fee: number }
interface Stats { network: { block_height: number; block_time_avg: string; hashrate: string; difficulty: number }; mining: { mining_percentage: number; active_miners: number } }
interface NetworkInfo { circulating_supply: string; total_supply: string }

declare global {
  interface Window { weftLight?: { status(): LightNodeStatus; node: LightNode }; weftUrls?: NodeUrls }
}

const setText = (sel: string, text: string): void => { query(sel).textContent = text; };

const recent: BlockView[] = [];
const series = { hash: [] as number[], diff: [] as number[], time: [] as number[], gpu: [] as number[] };
let light: LightNode | undefined;

/**
 * One draw of the lists, the DAG view and the block charts per frame. Blocks arrive one answer at a time while the
 * page loads (60-odd), and each used to redraw everything — forcing a layout of the whole page for the DAG view's
 * width — which made the explorer's load a row of long tasks on a phone (issue 32, docs/performance.md "Lighthouse").
 */
let drawQueued = false;
function queueDraw(): void {
  if (drawQueued) return;
  drawQueued = true;
  requestAnimationFrame(() => {
    drawQueued = false;
    renderBlocks();
  });
}

function renderBlocks(): void {
  // The DAG view first: it reads its own width, which is free only before this frame writes anything.
  drawDag();
  const rows = recent.slice(0, listRowsMax).map((b) => ({ key: b.hash, html: `<td>${formatInteger(b.height)}${b.is_chain_block ? '' : ' <span class="muted">(dag)</span>'}</td><td>${linkHtml('block', b.hash, { short: true, copy: false })}</td><td>${b.transaction_count}</td><td class="miner" title="${escapeHtml(b.miner)}">${minerHtml(b.miner)}${b.gpu_mining ? ' <span class="muted">GPU</span>' : ''}</td><td>${timeHtml(b.timestamp_ms)}</td>` }));
  // Keyed: a new block adds its row and leaves the others (and the link under the pointer) attached mid-click.
  renderKeyedRows(query<HTMLTableSectionElement>('#blocks tbody'), rows);
  const chain = recent.filter((b) => b.is_chain_block).slice(0, chartPointsMax).reverse();
  series.diff = chain.map((b) => b.difficulty);
  series.time = chain.slice(1).map((b, i) => (b.timestamp_ms - chain[i]!.timestamp_ms) / 1000);
  const heights: [string, string] = chain.length ? [`height ${formatInteger(chain[0]!.height)}`, `height ${formatInteger(chain.at(-1)!.height)}`] : ['', ''];
  const seconds = (v: number): string => `${v.toFixed(2)} s`;
  renderLineChart(query<SVGSVGElement>('#c-diff'), series.diff, { format: formatInteger, xLabels: heights, title: 'Difficulty of recent chain blocks' });
  renderLineChart(query<SVGSVGElement>('#c-time'), series.time, { color: '#d29922', format: seconds, xLabels: heights, title: 'Seconds between recent chain blocks' });
  setText('#c-diff-v', chartSummary(series.diff, formatInteger));
  setText('#c-time-v', chartSummary(series.time, seconds));
}

function drawDag(): void {
  const dag: DagBlock[] = recent.slice(0, dagBlocksMax).map((b) => ({ hash: b.hash, blueScore: b.blue_score, parents: b.parent_hashes, chain: b.is_chain_block, height: b.height }));
  renderDag(query<SVGSVGElement>('#dag'), dag, light?.chain);
}

/** A transaction's kind as a list shows it ("contract call"); a pending one's is not known until its block comes. */
const kindHtml = (kind: string | null): string => (kind ? escapeHtml(kind.replace(/_/g, ' ')) : '<span class="muted">–</span>');

function renderTransactions(rows: readonly TxRow[]): void {
  query('#txs tbody').innerHTML = rows.map((t) => {
    const where = t.status === 'pending' ? '<span class="warn">pending</span>' : `<a href="#/block/${t.blockHash}">block ${t.blockHeight}</a>`;
    return `<tr data-hash="${t.hash}" data-status="${t.status}"><td>${linkHtml('tx', t.hash, { short: true, copy: false })}</td><td>${formatCoins(t.amount)}</td><td>${where}</td><td>${kindHtml(t.kind)}</td></tr>`;
  }).join('') || `<tr><td colspan="4" class="muted">no transactions in the last ${txScanBlocksMax} blocks or since this page opened</td></tr>`;
}
const latestTxs = createLatestTransactions(renderTransactions);

function addBlock(block: BlockView): void {
  latestTxs.addBlock(block);
  if (recent.some((b) => b.hash === block.hash)) return;
  recent.unshift(block);
  recent.sort((a, b) => b.blue_score - a.blue_score);
  recent.length = Math.min(recent.length, 120);
  queueDraw();
}

const percent = (v: number): string => `${v.toFixed(1)} %`;

function showStats(stats: Stats): void {
  setText('#st-height', formatInteger(stats.network.block_height));
  setText('#st-hashrate', stats.network.hashrate);
  setText('#st-difficulty', formatInteger(stats.network.difficulty));
  setText('#st-blocktime', stats.network.block_time_avg.replace(/s$/, ' s'));
  // The average is over DAA steps (every block of the DAG counts one), so its inverse is the DAG's block rate.
  const secondsPerBlock = Number.parseFloat(stats.network.block_time_avg);
  setText('#st-bps', secondsPerBlock > 0 ? (1 / secondsPerBlock).toPrecision(3) : '–');
  setText('#st-gpu', percent(stats.mining.mining_percentage));
  setText('#st-miners', formatInteger(stats.mining.active_miners));
  setText('#node-height', String(stats.network.block_height));
  pushBounded(series.gpu, stats.mining.mining_percentage, chartPointsMax);
  renderLineChart(query<SVGSVGElement>('#c-gpu'), series.gpu, { color: '#3fb950', format: percent, xLabels: [`${series.gpu.length} tips ago`, 'now'], title: 'GPU share of the work, one point per new tip since this page opened' });
  setText('#c-gpu-v', chartSummary(series.gpu, percent));
}

/** DAA score and mempool size (get_info) and the supply (REST network info): read again at most every few seconds. */
let lastNodeFigures = 0;
let trailingRead: ReturnType<typeof setTimeout> | undefined;
async function loadNodeFigures(client: NodeClient, httpUrl: string): Promise<void> {
  const wait = lastNodeFigures + nodeFiguresEveryMs - Date.now();
  if (wait > 0) {
    // Throttled, not dropped: one read at the end of the window shows what changed within it.
    trailingRead ??= setTimeout(() => {
      trailingRead = undefined;
      void loadNodeFigures(client, httpUrl).catch(() => undefined);
    }, wait);
    return;
  }
  lastNodeFigures = Date.now();
  const info = await getInfo(client);
  setText('#st-daa', formatInteger(info.daa_score));
  setText('#st-mempool', info.mempool_size === null ? 'n/a' : `${formatInteger(info.mempool_size)} txs`);
  const supply = await restGet<NetworkInfo>(httpUrl, '/network/info').catch(() => undefined);
  if (supply) {
    // Whole coins in the tile (it has room for about 14 characters); the exact figure on hover and in #/supply.
    setText('#st-supply', formatCoins(supply.circulating_supply.replace(/\.(\d{0,2})\d*$/, (_, d: string) => (d ? `.${d}` : ''))));
    byId('st-supply').title = formatCoins(supply.circulating_supply);
  }
}

async function loadHashRate(client: NodeClient): Promise<void> {
  const stats = await getMiningStats(client, { period: '1h' });
  const points = stats.hash_rate_series.slice(-chartPointsMax);
  series.hash = points.map((p) => p.network_hashes_per_second);
  const minutesAgo = points.length ? Math.round((stats.to - points[0]!.timestamp) / 60) : 0;
  renderLineChart(query<SVGSVGElement>('#c-hash'), series.hash, { format: formatRate, xLabels: [`${minutesAgo} min ago`, 'now'], title: 'Estimated network hash rate over the last hour' });
  setText('#c-hash-v', chartSummary(series.hash, formatRate));
}

function showLight(s: LightNodeStatus): void {
  setText('#light-state', s.state);
  byId('light-state').className = s.state === 'synced' ? 'ok' : s.state === 'rejected' ? 'bad' : 'warn';
  setText('#light-height', String(s.tipHeight));
  setText('#light-verified', String(s.verified));
  setText('#light-resumed', String(s.resumed));
  setText('#light-tip', shortHash(s.tipHash));
  byId('light-tip').title = s.tipHash;
  // A tab that joined by proof holds headers from the proven pruning point up, not from genesis.
  setText('#light-from', s.joinedAt ? shortHash(s.joinedAt) : 'genesis');
  byId('light-from').title = s.joinedAt ? `the pruning point ${s.joinedAt}, proven by its proof` : 'genesis';
  const box = byId('light-error');
  box.hidden = s.error === null;
  const why = s.error?.rule ? ` [rule ${s.error.rule}]` : s.error?.proofReason ? ` [proof rule ${s.error.proofReason}]` : '';
  box.textContent = s.error ? `Rejected: ${s.error.message}${why}` : '';
  byId('light-retry').hidden = s.state !== 'rejected';
}

interface App { client: NodeClient; urls: NodeUrls; light: Promise<LightNode>; lightNow(): LightNode | undefined }

/** Resolves once the node answered: what the detail pages need (the light node they await themselves). */
let markReady: (app: App) => void = () => undefined;
const ready = new Promise<App>((resolve) => (markReady = resolve));

/**
 * Search and routing work from the first moment: the search form is handled before anything is awaited (Enter used
 * to reload the page until the lists had loaded), a route waits for the node instead of being dropped, and a
 * search typed before this module ran arrives as `?q=` (the form's plain GET) and is routed here.
 */
function installRouting(): void {
  byId('search').addEventListener('submit', (event) => {
    event.preventDefault();
    const route = routeSearch(byId<HTMLInputElement>('search-input').value.trim());
    if (route) location.hash = route;
  });
  const query = new URLSearchParams(location.search);
  const typed = query.get('q');
  if (typed !== null) {
    query.delete('q');
    const rest = query.toString();
    history.replaceState(null, '', `${location.pathname}${rest ? `?${rest}` : ''}${routeSearch(typed.trim()) ?? location.hash}`);
  }
  const route = () => {
    showRoute(location.hash, { section: byId('detail'), body: byId('detail-body') });
    void ready.then((app) => renderDetail(location.hash, { ...app, section: byId('detail'), body: byId('detail-body'), title: byId('detail-h') }));
  };
  window.addEventListener('hashchange', route);
  route();
}

/** The connection line in the header: what the page is waiting for, so a page opened while the node is down says so. */
function showConnection(state: ConnectionState | 'unreachable', retryInMs?: number): void {
  const text = {
    open: 'node: connected',
    connecting: 'node: connecting…',
    closed: 'node: unreachable, reconnecting',
    unreachable: `node: unreachable, retrying in ${Math.ceil((retryInMs ?? 0) / 1000)} s`,
  }[state];
  setText('#connection', text);
  byId('connection').className = state === 'open' ? 'conn ok' : state === 'connecting' ? 'conn warn' : 'conn bad';
}

/**
 * The newest blocks, read again after every reconnect so blocks announced while the page was cut off are not missing.
 * Asked for together and added together: one draw for the lot (queueDraw), not one per answer.
 */
async function loadLatest(client: NodeClient): Promise<number> {
  byId('blocks').setAttribute('aria-busy', 'true');
  try {
    const latest = await getLatestBlock(client, { include_transactions: true });
    const lowest = Math.max(0, latest.height - listRowsMax);
    const heights = Array.from({ length: latest.height - lowest }, (_, i) => latest.height - 1 - i);
    const below = await Promise.all(heights.map((height) => getBlock(client, { height })));
    for (const block of [latest, ...below]) addBlock(block);
    await loadSideBlocks(client);
    return lowest;
  } finally {
    byId('blocks').setAttribute('aria-busy', 'false');
  }
}

/**
 * The side blocks of the window: heights name chain blocks only, so the DAG view would show a chain. Every parent of
 * a loaded block not loaded yet and not older than the window is read by hash (at most `sideBlocksMax`).
 */
async function loadSideBlocks(client: NodeClient): Promise<void> {
  const oldest = Math.min(...recent.map((b) => b.blue_score));
  const known = new Set(recent.map((b) => b.hash));
  const missing = [...new Set(recent.flatMap((b) => b.parent_hashes))].filter((hash) => !known.has(hash)).slice(0, sideBlocksMax);
  const parents = await Promise.all(missing.map((hash) => getBlock(client, { hash })));
  for (const block of parents) if (block.blue_score >= oldest) addBlock(block);
}

/**
 * The light node runs in a Worker (web/light/worker/: header verification, Noise, curves, most of the app's script);
 * the page's side of it (its chain mirror and status) is a small chunk. It starts once the page has drawn and is idle
 * (web/lib/idle.ts), so its downloads do not compete with the lists', which show the node's answers first.
 */
async function startLight(info: GetInfoReturnType, urls: NodeUrls): Promise<LightNode> {
  await afterDrawnAndIdle(lightStartWaitMsMax);
  const [{ startLightNode }, { verifiedNetworkOf }] = await Promise.all([import('../light/light-node.ts'), import('../wallet/wallet-network.ts')]);
  // `?verify=genesis`: check every header from genesis instead of joining by proof (an archive node keeps them).
  // The light node verifies with the page origin's network parameters; a node that claims another network is refused.
  const node = await startLightNode({ params: verifiedNetworkOf(info, urls.network).params, p2pUrl: urls.p2pUrl, fromGenesis: new URLSearchParams(location.search).get('verify') === 'genesis' });
  light = node;
  window.weftLight = { status: () => node.status(), node };
  let lastTip = '';
  node.onStatus((status) => {
    showLight(status);
    // The DAG view's colours are the tab's own GHOSTDAG: redraw when it verified a new tip.
    if (status.tipHash !== lastTip) (lastTip = status.tipHash), queueDraw();
  });
  byId('light-retry').addEventListener('click', () => node.retry());
  return node;
}

function showFailure(what: string, error: unknown): void {
  const box = byId('light-error');
  box.hidden = false;
  box.textContent = `${what}: ${(error as Error).message}`;
}

async function main(): Promise<void> {
  installRouting();
  const urls = await discoverNodeUrls(location, { onUnreachable: (ms) => showConnection('unreachable', ms) });
  window.weftUrls = urls;
  const client = createNodeClient(urls.wsUrl);
  let opens = 0;
  client.onState((state) => {
    showConnection(state);
    if (state === 'open' && opens++ > 0) void loadLatest(client).catch(() => undefined);
  });
  installCopyButtons(document.body);
  const info = await retryWhileDisconnected(client, () => getInfo(client));
  setText('#node-height', String(info.block_height));
  setText('#st-daa', formatInteger(info.daa_score));
  const lightStarted = startLight(info, urls);
  lightStarted.catch((error: unknown) => showFailure('The light node did not start', error));
  markReady({ client, urls, light: lightStarted, lightNow: () => light });

  const lowest = await followBlocks({ subscribe: (add) => client.subscribe<BlockView>('new_blocks', add) }, () => retryWhileDisconnected(client, () => loadLatest(client)), addBlock);
  await client.subscribe<PendingTransaction>('pending_transactions', (e) => {
    latestTxs.addPending(e);
    void loadNodeFigures(client, urls.httpUrl).catch(() => undefined); // the mempool tile (throttled)
  });
  void latestTxs.scan(client, lowest).catch(() => undefined);
  showStats(await restGet<Stats>(urls.httpUrl, '/stats'));
  await client.subscribe<Stats>('network_stats', (s) => {
    showStats(s);
    void loadHashRate(client).catch(() => undefined);
    void loadNodeFigures(client, urls.httpUrl).catch(() => undefined);
  });
  await loadHashRate(client).catch(() => undefined);
  await loadNodeFigures(client, urls.httpUrl).catch(() => undefined);
}

void main().catch((error: unknown) => showFailure('Cannot reach the node', error));
