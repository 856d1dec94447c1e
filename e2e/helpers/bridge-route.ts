// A man in the middle on the tab's p2p bridge, placed where a real one sits: on the wire. A page finds its bridge
// only from its own origin (web/lib/node-client.ts; no `?p2p=` any more): `/web-config.json` names the WebSocket
// port and the bridge is that port's `/p2p`. The light node runs in a Worker (web/light/worker/), whose sockets
// Playwright's routeWebSocket does not see, and a response Playwright fulfils has no address space (Chromium's local
// network access checks then refuse its sockets), so the test serves the page from a front of its own instead: one
// port that relays HTTP to the node (its CSP and `/web-config.json` naming the front's port for WebSockets) and
// WebSockets on, `/p2p` to a bridge of the test's (a fake one, or one that relays to the node and edits what
// passes) and every other (JSON-RPC) to the node, every message both ways.
import { createServer, request as httpRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import WebSocket, { WebSocketServer } from 'ws';

export interface BridgeFront {
  /** Where the page loads from: the node's web app, with its bridge replaced. */
  readonly url: string;
  close(): Promise<void>;
}

function relay(client: WebSocket, upstreamUrl: string): void {
  const upstream = new WebSocket(upstreamUrl);
  const early: { data: WebSocket.RawData; binary: boolean }[] = [];
  upstream.on('open', () => {
    for (const m of early.splice(0)) upstream.send(m.data, { binary: m.binary });
  });
  upstream.on('message', (data, binary) => client.readyState === WebSocket.OPEN && client.send(data, { binary }));
  upstream.on('close', () => client.close());
  upstream.on('error', () => client.close());
  client.on('message', (data, binary) => {
    if (upstream.readyState === WebSocket.OPEN) upstream.send(data, { binary });
    else early.push({ data, binary });
  });
  client.on('close', () => upstream.close());
  client.on('error', () => upstream.close());
}

/** Serves `node`'s web app on a port of its own whose p2p bridge is `bridgeUrl`. */
export async function frontWithBridge(node: { readonly url: string; readonly wsPort: number }, bridgeUrl: string): Promise<BridgeFront> {
  const target = new URL(node.url);
  let port = 0;
  const server = createServer((req, res) => {
    const config = req.url === '/web-config.json';
    const headers = { ...req.headers, host: target.host, ...(config ? { 'accept-encoding': 'identity' } : {}) };
    const upstream = httpRequest({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers }, (answer: IncomingMessage) => {
      const out = { ...answer.headers };
      const csp = out['content-security-policy'];
      if (typeof csp === 'string') out['content-security-policy'] = csp.replaceAll(`:${node.wsPort}`, `:${port}`);
      if (!config) return (res.writeHead(answer.statusCode ?? 502, out), answer.pipe(res));
      const chunks: Buffer[] = [];
      answer.on('data', (c: Buffer) => chunks.push(c));
      answer.on('end', () => {
        const body = JSON.stringify({ ...(JSON.parse(Buffer.concat(chunks).toString()) as object), ws_port: port });
        delete out['content-length'];
        res.writeHead(answer.statusCode ?? 502, out).end(body);
      });
    });
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  const sockets = new WebSocketServer({ server });
  sockets.on('connection', (client, req) => relay(client, req.url === '/p2p' ? bridgeUrl : `ws://127.0.0.1:${node.wsPort}${req.url ?? '/'}`));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => {
      for (const c of sockets.clients) c.terminate();
      sockets.close();
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
