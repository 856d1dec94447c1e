// The third-party page for the widget's e2e tests: web/embed-demo.html served on an origin that is not the node's
// (port 0, `localhost` while the node is 127.0.0.1). It includes the widget script from the node itself
// (`<node>/weft-wallet.js`, built by `npm run build`), as a real shop would.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { expect, type Frame, type Locator, type Page } from '@playwright/test';

export interface EmbedShop {
  readonly url: string;
  /** The demo page's address with the widget pointed at `nodeOrigin`. */
  demoUrl(nodeOrigin: string): string;
  close(): void;
}

export async function startEmbedShop(): Promise<EmbedShop> {
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    // The browser asks for a favicon: no content, so a page's console shows no failed load.
    if (path === '/favicon.ico') return void res.writeHead(204).end();
    if (path !== '/embed-demo.html') return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(readFileSync(resolve('web/embed-demo.html')));
  });
  await new Promise<void>((done) => server.listen(0, done));
  const url = `http://localhost:${(server.address() as AddressInfo).port}`;
  return {
    url,
    demoUrl: (nodeOrigin) => `${url}/embed-demo.html?node=${encodeURIComponent(nodeOrigin)}&script=${encodeURIComponent(`${nodeOrigin}/weft-wallet.js`)}`,
    close: () => void server.close(),
  };
}

/** The widget's iframe (widget.html on the node's origin) inside `page`. */
export async function widgetFrame(page: Page): Promise<Frame> {
  await expect.poll(() => page.frames().some((f) => f.url().includes('/widget.html'))).toBe(true);
  return page.frames().find((f) => f.url().includes('/widget.html'))!;
}

/**
 * Scrolls the shop page so the widget is wholly on screen, as a user does before approving: the widget approves only
 * while its request is fully visible (docs/widget.md "Clickjacking"), and a full-page screenshot leaves the page
 * scrolled to its end.
 */
export async function showWidget(page: Page): Promise<void> {
  await page.locator('weft-wallet').scrollIntoViewIfNeeded();
}

/**
 * Clicks the widget's Approve button as a user does: once it is enabled, the pointer moves onto it and clicks, with
 * no scrolling. (Playwright's own click scrolls the frame just before clicking; the widget rightly treats a request
 * that moved as newly shown and restarts its delay.)
 */
export async function approveInWidget(page: Page, button: Locator): Promise<void> {
  await expect(button).toBeEnabled({ timeout: 30_000 });
  const box = (await button.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 4 });
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
}
