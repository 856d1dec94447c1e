/**
 * What every explorer page (a hash route, web/explorer/routes.ts) is given: the node's clients, the tab's light
 * node, and the detail section it fills. `current()` is false once the reader moved to another route, so a page
 * that finishes loading late does not overwrite the next one.
 */
import type { LightNode } from '../light/light-node.ts';
import { escapeHtml } from '../lib/format.ts';
import type { NodeClient, NodeUrls } from '../lib/node-client.ts';

export interface PageContext {
  readonly client: NodeClient;
  readonly urls: NodeUrls;
  /**
   * The tab's light node, which starts once the page has drawn (docs/performance.md "Lighthouse"): a page shows the
   * node's answer first and awaits this for what needs verified headers.
   */
  readonly light: Promise<LightNode>;
  /** The light node if it has started: what a page can show at once. */
  lightNow(): LightNode | undefined;
  readonly section: HTMLElement;
  readonly body: HTMLElement;
  readonly title: HTMLElement;
  current(): boolean;
}

/** A node answer meaning "no such block / transaction" (as opposed to a failure worth showing as such). */
export const isNotFound = (error: unknown): boolean => /not found/i.test((error as Error).message) || (error as { kind?: string }).kind === 'block_not_found';

export function showNothingFound(ctx: PageContext, what: string, searched: string, note?: string): void {
  ctx.title.textContent = 'Nothing found';
  const hint = note ?? 'Search by block height, block or transaction hash (0x and 64 hex digits), or address.';
  ctx.body.innerHTML = `<p id="not-found">No ${escapeHtml(what)} matches <span class="mono">${escapeHtml(searched)}</span>.</p><p class="muted">${escapeHtml(hint)}</p>`;
}

/** A two-column table of labelled figures (already HTML); rows whose value is undefined are left out. */
export function fieldsTable(rows: readonly (readonly [label: string, html: string | undefined])[], id?: string): string {
  const body = rows.filter(([, html]) => html !== undefined).map(([label, html]) => `<tr><th scope="row">${escapeHtml(label)}</th><td>${html}</td></tr>`);
  return `<table class="fields"${id ? ` id="${id}"` : ''}>${body.join('')}</table>`;
}

/** Resolves true once the tab's light node verified block `id` (hex, no 0x), false after `timeoutMs`. */
export async function whenVerified(light: LightNode, id: string, timeoutMs: number): Promise<boolean> {
  for (const end = Date.now() + timeoutMs; !light.chain.has(id); ) {
    if (Date.now() > end) return false;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return true;
}
