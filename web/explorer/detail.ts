/**
 * The explorer's pages behind hash routes and the search box's routing. Each route is a name and a render
 * function in `routes` (`#/<name>/<arg>` or `#/<name>`); another page registers itself with `addRoute` (the
 * contract view does). A route fills the detail section, which is scrolled into view with its heading focused.
 */
import { escapeHtml, refreshTimes } from '../lib/format.ts';
import type { LightNode } from '../light/light-node.ts';
import { createHttpClient, type NodeClient, type NodeUrls } from '../lib/node-client.ts';
import { showNothingFound, type PageContext } from './page-context.ts';
import { strip0x } from '../../src/util/bytes.ts';

// Each page's module loads when a route first needs it (dynamic import): the explorer home loads none of them, nor
// the proof, VM and curve code they pull in (issue 32, docs/performance.md "Lighthouse").
const blockPage = () => import('./block-page.ts');
const txPage = () => import('./tx-page.ts');
const escrowPage = () => import('./escrow-page.ts');

type RouteRender = (ctx: PageContext, arg: string) => Promise<void>;

const routes = new Map<string, RouteRender>([
  ['block', async (ctx, arg) => void (await (await blockPage()).renderBlockPage(ctx, arg, true))],
  ['tx', async (ctx, arg) => void (await (await txPage()).renderTransactionPage(ctx, arg, true))],
  // A bare hash: a block if the node knows one, else a transaction, else an escrow.
  ['hash', async (ctx, arg) => void ((await (await blockPage()).renderBlockPage(ctx, arg, false)) || (await (await txPage()).renderTransactionPage(ctx, arg, false)) || (await (await escrowPage()).renderEscrowPage(ctx, arg, false)))],
  ['address', async (ctx, arg) => (await import('./address-page.ts')).renderAddressPage(ctx, arg)],
  // Agent accounts and escrows (docs/settlement.md) are public reads.
  ['agent', async (ctx, arg) => (await import('./agent-page.ts')).renderAgentPage(ctx, arg)],
  ['escrow', async (ctx, arg) => void (await (await escrowPage()).renderEscrowPage(ctx, arg, true))],
  ['search', async (ctx, arg) => showNothingFound(ctx, 'block, transaction or address', arg)],
  ['mempool', async (ctx) => (await import('./mempool-page.ts')).renderMempoolPage(ctx)],
  ['supply', async (ctx) => (await import('./supply-page.ts')).renderSupplyPage(ctx)],
  ['output', async (ctx, arg) => (await import('./confidential-tx.ts')).renderOutputPage(ctx, arg)],
  // Contract history and state are public reads (docs/auth.md "Public reads").
  ['contract', async (ctx, arg) => (await import('./contract-view.ts')).renderContract(arg, { client: createHttpClient(ctx.urls.httpUrl), body: ctx.body, title: ctx.title })],
]);

/**
 * Height → block, 0x-hash → block (then transaction), anything else with a `1` separator → address; other text →
 * `#/search/<text>`, which says that nothing matches (a search must never just do nothing). Empty → undefined.
 */
export function routeSearch(text: string): string | undefined {
  if (text === '') return undefined;
  if (/^\d+$/.test(text)) return `#/block/${text}`;
  if (/^(0x)?[0-9a-fA-F]{64}$/.test(text)) return `#/hash/0x${strip0x(text).toLowerCase()}`;
  if (/^[a-z]+1[02-9ac-hj-np-z]+$/.test(text)) return `#/address/${text}`;
  return `#/search/${encodeURIComponent(text)}`;
}

interface DetailTargets {
  readonly client: NodeClient;
  readonly urls: NodeUrls;
  readonly light: Promise<LightNode>;
  lightNow(): LightNode | undefined;
  readonly section: HTMLElement;
  readonly body: HTMLElement;
  readonly title: HTMLElement;
}

let renders = 0;
setInterval(() => refreshTimes(document), 5_000);

/**
 * Shows which view the URL names before anything is loaded: a route opens the detail section (with its "loading…"
 * line) and hides the overview's panels (app.css, `body[data-route]`), the header's page links say which view is
 * open. Called as the page's script starts, so a detail page opened by its URL never moves the overview down when
 * its data arrives — that was the block page's layout shift of 0.93 (issue 32). Returns the route's render.
 */
export function showRoute(hash: string, targets: Pick<DetailTargets, 'section' | 'body'>): { name: string; arg: string; render: RouteRender } | undefined {
  const [, name, rawArg] = hash.match(/^#\/([a-z-]+)(?:\/(.+))?$/) ?? [];
  const render = name ? routes.get(name) : undefined;
  if (render && targets.section.hidden) targets.body.innerHTML = '<p class="muted">loading…</p>';
  targets.section.hidden = !render;
  document.body.dataset.route = render ? name : 'home';
  // The header's page links say which view is open (the mempool and supply views live on this page too).
  for (const link of document.querySelectorAll<HTMLAnchorElement>('header nav a')) {
    const view = new URL(link.href).hash.replace('#/', '') || (link.pathname.endsWith('.html') && !link.pathname.endsWith('index.html') ? '-' : 'explorer');
    const open = view === name || (view === 'explorer' && name !== 'mempool' && name !== 'supply');
    if (open) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
  return render && { name: name!, arg: rawArg ?? '', render };
}

export async function renderDetail(hash: string, targets: DetailTargets): Promise<void> {
  const route = showRoute(hash, targets);
  if (!route) return;
  const mine = ++renders;
  const ctx: PageContext = { ...targets, current: () => mine === renders };
  ctx.body.innerHTML = '<p class="muted">loading…</p>';
  // The page is opened where the user is looking: a link clicked far down the lists would otherwise fill a section
  // scrolled out of view, and the click would seem to do nothing (issue 21). Focus moves to its heading for
  // keyboard and screen-reader users.
  ctx.section.scrollIntoView({ block: 'start' });
  ctx.title.focus({ preventScroll: true });
  let arg = route.arg;
  try {
    arg = decodeURIComponent(arg);
  } catch {
    // A malformed escape is searched as typed.
  }
  try {
    await route.render(ctx, arg);
  } catch (error) {
    if (!ctx.current()) return;
    ctx.title.textContent = 'Could not load this page';
    ctx.body.innerHTML = `<div class="error-box" role="alert">${escapeHtml((error as Error).message)}</div>`;
  }
}
