// A man in the middle on the tab's p2p bridge, placed where a real one sits: on the wire. A page finds its bridge
// only from its own origin (web/lib/node-client.ts; no `?p2p=` any more), so the test routes that socket — the
// page's `ws://<node host>:<ws port>/p2p` — to a bridge of its own (a fake one, or one that relays to the node and
// edits what passes), relaying every binary message both ways.
import type { Page } from '@playwright/test';
import WebSocket from 'ws';

/** From now on, `page`'s p2p bridge connections reach `bridgeUrl` instead of the node's /p2p. */
export async function routeBridgeTo(page: Page, bridgeUrl: string): Promise<void> {
  await page.routeWebSocket(/\/p2p$/, (route) => {
    const upstream = new WebSocket(bridgeUrl);
    const early: Buffer[] = [];
    upstream.on('open', () => {
      for (const message of early.splice(0)) upstream.send(message);
    });
    upstream.on('message', (data: Buffer) => route.send(data));
    upstream.on('close', () => route.close());
    upstream.on('error', () => route.close());
    route.onMessage((message) => {
      const bytes = typeof message === 'string' ? Buffer.from(message) : message;
      if (upstream.readyState === WebSocket.OPEN) upstream.send(bytes);
      else early.push(bytes);
    });
    route.onClose(() => upstream.close());
  });
}
