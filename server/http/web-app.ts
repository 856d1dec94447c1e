/**
 * Serves the built web app (npm run build → dist/web; docs/web.md) from the node's HTTP port: `/` is the explorer
 * and light node (dist/web/web/index.html) when the build exists, else the status page; the status page stays at
 * `/status`; `/<page>.html` are the app's pages, `/assets/*` their scripts, styles and Wasm, and `/weft-wallet.js` the
 * embeddable wallet's script. `/web-config.json`
 * tells the pages the WebSocket port (8081 by default, any port in tests), which they cannot guess from the URL.
 * `/favicon.ico` and `/favicon.svg` are made here (browsers ask for /favicon.ico on every page), so they exist with or
 * without a build. Only files under dist/web are ever read.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Hono } from 'hono';
import { webContentTypes } from './content-types.ts';
import { precompressedWebApp } from './precompressed.ts';
import { prefersJson, statusPage, statusScript } from './status-page.ts';

/**
 * The web app's own files (the pages, their assets, the embeddable wallet's script, icons, /web-config.json): static
 * bytes served from memory or disk, which the rate limiter does not count (docs/auth.md "Rate limits") — a visitor's
 * tab loading its pages must not spend the tokens its mining or wallet calls need.
 */
export function isWebAppFile(method: string, path: string): boolean {
  if (method !== 'GET' && method !== 'HEAD') return false;
  return (
    path === '/' ||
    path === '/web-config.json' ||
    path === '/status.js' ||
    path === '/favicon.ico' ||
    path === '/favicon.svg' ||
    path === '/weft-wallet.js' ||
    path.startsWith('/assets/') ||
    /^\/[a-z0-9-]+\.html$/.test(path)
  );
}

const webDistDir = resolve(fileURLToPath(new URL('../../dist/web', import.meta.url)));

function readInside(root: string, relative: string): { body: ArrayBuffer; type: string } | undefined {
  const file = resolve(root, relative);
  if (!file.startsWith(root + sep) || !existsSync(file) || !statSync(file).isFile()) return undefined;
  const bytes = readFileSync(file);
  return { body: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer, type: webContentTypes[extname(file)] ?? 'application/octet-stream' };
}

const iconSize = 16;
const iconBackground = [0x1b, 0x2a, 0x41] as const;
const iconThread = [0x4f, 0xd1, 0xc5] as const;

/** The icon's pixel (x, y from the top left): a woven pattern on a rounded square; undefined = transparent. */
function iconPixel(x: number, y: number): readonly [number, number, number] | undefined {
  const edge = (v: number) => Math.min(v, iconSize - 1 - v);
  if (edge(x) + edge(y) < 2) return undefined; // rounded corners
  return (x + y) % 6 < 2 || (x - y + iconSize) % 6 < 2 ? iconThread : iconBackground;
}

/** A 16×16, 32-bit ICO (one BMP image with alpha; the AND mask is unused). */
function faviconIco(): Uint8Array {
  const pixels = iconSize * iconSize * 4;
  const mask = iconSize * 4; // 16 rows of 32 bits
  const image = 40 + pixels + mask;
  const bytes = new Uint8Array(6 + 16 + image);
  const v = new DataView(bytes.buffer);
  v.setUint16(2, 1, true); // type: icon
  v.setUint16(4, 1, true); // one image
  v.setUint8(6, iconSize);
  v.setUint8(7, iconSize);
  v.setUint16(10, 1, true); // planes
  v.setUint16(12, 32, true); // bits per pixel
  v.setUint32(14, image, true);
  v.setUint32(18, 22, true); // offset of the image
  const h = 22;
  v.setUint32(h, 40, true); // BITMAPINFOHEADER
  v.setInt32(h + 4, iconSize, true);
  v.setInt32(h + 8, iconSize * 2, true); // XOR image + AND mask
  v.setUint16(h + 12, 1, true);
  v.setUint16(h + 14, 32, true);
  v.setUint32(h + 20, pixels + mask, true);
  for (let row = 0; row < iconSize; row++) {
    const y = iconSize - 1 - row; // bottom-up
    for (let x = 0; x < iconSize; x++) {
      const at = h + 40 + (row * iconSize + x) * 4;
      const c = iconPixel(x, y);
      if (c) bytes.set([c[2], c[1], c[0], 0xff], at); // BGRA
    }
  }
  return bytes;
}

const hex = (c: readonly number[]) => `#${c.map((n) => n.toString(16).padStart(2, '0')).join('')}`;
export const faviconSvg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="${hex(iconBackground)}"/><path d="M0 4 12 16M0 10 6 16M4 0 16 12M10 0 16 6M16 4 4 16M16 10 10 16M12 0 0 12M6 0 0 6" stroke="${hex(iconThread)}" stroke-width="1.4"/></svg>`;

export interface WebAppOptions {
  readonly network: string;
  /** The WebSocket port once it is listening (config.wsPort may be 0). */
  readonly wsPort: () => number;
  readonly distDir?: string;
  /** What /health answers: /status gives it to a client that asks for JSON (status-page.ts `prefersJson`). */
  readonly health?: () => unknown;
}

export function mountWebApp(app: Hono, options: WebAppOptions): void {
  const root = options.distDir ?? webDistDir;
  const page = (name: string) => readInside(root, join('web', name));
  app.use(precompressedWebApp(root));
  app.get('/web-config.json', (c) => c.json({ ws_port: options.wsPort(), network: options.network }));
  const ico = faviconIco();
  const iconCache = 'public, max-age=86400';
  app.get('/favicon.ico', (c) => c.body(ico.slice().buffer, 200, { 'content-type': 'image/x-icon', 'cache-control': iconCache }));
  app.get('/favicon.svg', (c) => c.body(faviconSvg, 200, { 'content-type': 'image/svg+xml', 'cache-control': iconCache }));
  app.get('/status', (c) => (options.health && prefersJson(c.req.header('accept')) ? c.json(options.health()) : c.html(statusPage)));
  app.get('/status.js', (c) => c.body(statusScript, 200, { 'content-type': 'text/javascript; charset=utf-8' }));
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
