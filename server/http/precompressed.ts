/**
 * The web app's files precompressed (docs/web.md "Serving"): `npm run build` writes a brotli `.br` and a gzip `.gz`
 * copy beside every compressible file of dist/web (bin/compress-web.mjs); this middleware answers a GET or HEAD for
 * one of the app's paths with the copy the request's Accept-Encoding prefers (brotli, then gzip), with
 * `Content-Encoding` and `Vary: Accept-Encoding`, and leaves every other request — no copy, `identity` only, a path
 * that is not the app's — to the routes of web-app.ts, which serve the file as it is. Cache headers are the same
 * either way: hashed assets (`/assets/*`) are immutable for a year; the embeddable script's stable name is cached 5
 * minutes; pages are revalidated. Nothing outside dist/web is ever read.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { extname, resolve, sep } from 'node:path';
import type { MiddlewareHandler } from 'hono';
import { webContentTypes } from './content-types.ts';

export type ContentCoding = 'br' | 'gzip';

const codingSuffix: Readonly<Record<ContentCoding, string>> = { br: '.br', gzip: '.gz' };

/** The file under dist/web a request path stands for, or undefined for paths that are not the app's files. */
function webFileOf(path: string): string | undefined {
  if (path === '/') return 'web/index.html';
  if (/^\/[a-z0-9-]+\.html$/.test(path)) return `web${path}`;
  if (path === '/weft-wallet.js') return 'weft-wallet.js';
  if (path.startsWith('/assets/') && !path.includes('..')) return path.slice(1);
  return undefined;
}

/** The caching a path's answer carries (RFC 9111): content-hashed names never change, so they are immutable. */
function cacheControlOf(path: string): string {
  if (path.startsWith('/assets/')) return 'public, max-age=31536000, immutable';
  if (path === '/weft-wallet.js') return 'public, max-age=300';
  return 'no-cache';
}

/**
 * The coding to answer with, by the request's Accept-Encoding (RFC 9110 §12.5.3): brotli when acceptable, else gzip,
 * else none; a coding with q=0 is refused, `*` stands for codings not named.
 */
export function negotiateCoding(acceptEncoding: string | undefined, available: readonly ContentCoding[]): ContentCoding | undefined {
  if (!acceptEncoding) return undefined;
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';');
    if (!name) continue;
    const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)).find((m) => m !== null);
    weights.set(name.trim(), q ? Number(q[1]) : 1);
  }
  const weightOf = (coding: string): number => weights.get(coding) ?? (coding === 'gzip' ? weights.get('x-gzip') : undefined) ?? weights.get('*') ?? 0;
  let best: ContentCoding | undefined;
  for (const coding of (['br', 'gzip'] as const).filter((c) => available.includes(c))) {
    const w = weightOf(coding);
    if (w > 0 && (best === undefined || w > weightOf(best))) best = coding;
  }
  return best;
}

const isFileInside = (root: string, file: string): boolean => file.startsWith(root + sep) && existsSync(file) && statSync(file).isFile();

/** Serves the precompressed copies of the app's files under `root` (dist/web); see the module comment. */
export function precompressedWebApp(root: string): MiddlewareHandler {
  return async (c, next) => {
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return next();
    const relative = webFileOf(c.req.path);
    const file = relative === undefined ? undefined : resolve(root, relative);
    if (file === undefined || !isFileInside(root, file)) return next();
    const available = (['br', 'gzip'] as const).filter((coding) => isFileInside(root, file + codingSuffix[coding]));
    const coding = negotiateCoding(c.req.header('accept-encoding'), available);
    if (coding === undefined) {
      await next();
      if (available.length > 0) c.res.headers.append('vary', 'accept-encoding');
      c.res.headers.set('cache-control', cacheControlOf(c.req.path));
      return;
    }
    const bytes = readFileSync(file + codingSuffix[coding]);
    const headers: Record<string, string> = {
      'content-type': webContentTypes[extname(file)] ?? 'application/octet-stream',
      'content-encoding': coding,
      vary: 'accept-encoding',
      'cache-control': cacheControlOf(c.req.path),
    };
    if (c.req.path === '/weft-wallet.js') headers['access-control-allow-origin'] = '*';
    return c.body(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer, 200, headers);
  };
}
