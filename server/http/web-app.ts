/**
 * Serves the built web app (npm run build → dist/web; docs/web.md) from the node's HTTP port: `/` is the explorer
 * and light node (dist/web/web/index.html) when the build exists, else the status page; the status page stays at
 * `/status`; `/<page>.html` are the app's pages, `/assets/*` their scripts, styles and Wasm, and `/weft-wallet.js` the
 * embeddable wallet's script. `/web-config.json`
 * tells the pages the WebSocket port (8081 by default, any port in tests), which they cannot guess from the URL.
 * Only files under dist/web are ever read.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Hono } from 'hono';
import { statusPage } from './status-page.ts';

export const webDistDir = resolve(fileURLToPath(new URL('../../dist/web', import.meta.url)));

const contentTypes: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.wgsl': 'text/plain; charset=utf-8',
};

function readInside(root: string, relative: string): { body: ArrayBuffer; type: string } | undefined {
  const file = resolve(root, relative);
  if (!file.startsWith(root + sep) || !existsSync(file) || !statSync(file).isFile()) return undefined;
  const bytes = readFileSync(file);
  return { body: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer, type: contentTypes[extname(file)] ?? 'application/octet-stream' };
}

export interface WebAppOptions {
  readonly network: string;
  /** The WebSocket port once it is listening (config.wsPort may be 0). */
  readonly wsPort: () => number;
  readonly distDir?: string;
}

export function mountWebApp(app: Hono, options: WebAppOptions): void {
  const root = options.distDir ?? webDistDir;
  const page = (name: string) => readInside(root, join('web', name));
  app.get('/web-config.json', (c) => c.json({ ws_port: options.wsPort(), network: options.network }));
  app.get('/status', (c) => c.html(statusPage));
  app.get('/', (c) => {
    const index = page('index.html');
    return index ? c.body(index.body, 200, { 'content-type': index.type }) : c.html(statusPage);
  });
  app.get('/:page{[a-z0-9-]+\\.html}', (c, next) => {
    const found = page(c.req.param('page'));
    return found ? c.body(found.body, 200, { 'content-type': found.type }) : next();
  });
  // The embeddable wallet's script (docs/widget.md): a stable name third-party pages include, so not immutable.
  app.get('/weft-wallet.js', (c, next) => {
    const found = readInside(root, 'weft-wallet.js');
    return found ? c.body(found.body, 200, { 'content-type': found.type, 'cache-control': 'public, max-age=300', 'access-control-allow-origin': '*' }) : next();
  });
  app.get('/assets/*', (c, next) => {
    const found = readInside(root, c.req.path.slice(1));
    return found ? c.body(found.body, 200, { 'content-type': found.type, 'cache-control': 'public, max-age=31536000, immutable' }) : next();
  });
}
