// The web app's precompressed files (bin/compress-web.mjs at build time, server/http/precompressed.ts when serving):
// a browser that accepts brotli gets the .br copy, one that accepts only gzip the .gz, one that accepts neither the
// file as it is — the same bytes once decoded, with Vary: Accept-Encoding — and hashed assets are immutable.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compressTree } from '../../../../bin/compress-web.mjs';
import { negotiateCoding } from '../../../../server/http/precompressed.ts';
import { mountWebApp } from '../../../../server/http/web-app.ts';

const dist = mkdtempSync(join(tmpdir(), 'weft-precompressed-'));
const page = `<!doctype html><html><head><meta name="description" content="x"><title>t</title></head><body>${'<p>weft block-DAG explorer</p>'.repeat(200)}</body></html>`;
const script = `export const figures = [${Array.from({ length: 400 }, (_, i) => i * 7).join(',')}];`;
let app: Hono;

beforeAll(() => {
  mkdirSync(join(dist, 'web'), { recursive: true });
  mkdirSync(join(dist, 'assets'), { recursive: true });
  writeFileSync(join(dist, 'web', 'index.html'), page);
  writeFileSync(join(dist, 'assets', 'main-3f2a9c1d.js'), script);
  writeFileSync(join(dist, 'assets', 'tiny-00aa11bb.js'), 'export {};');
  writeFileSync(join(dist, 'assets', 'main-3f2a9c1d.js.br'), 'stale copy of an older build');
  compressTree(dist);
  app = new Hono();
  mountWebApp(app, { network: 'regtest', wsPort: () => 0, distDir: dist });
});
afterAll(() => rmSync(dist, { recursive: true, force: true }));

const get = (path: string, acceptEncoding?: string) => app.request(path, { headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} });

describe('precompressed static files', () => {
  it('the build step writes .br and .gz beside files worth compressing only, replacing stale copies', () => {
    expect(readdirSync(join(dist, 'assets')).sort()).toEqual(['main-3f2a9c1d.js', 'main-3f2a9c1d.js.br', 'main-3f2a9c1d.js.gz', 'tiny-00aa11bb.js']);
    expect(readdirSync(join(dist, 'web')).sort()).toEqual(['index.html', 'index.html.br', 'index.html.gz']);
  });

  it('serves brotli to a browser that takes it, gzip to one that takes only gzip, the file to one that takes neither', async () => {
    const br = await get('/', 'gzip, deflate, br, zstd');
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(br.headers.get('vary')).toMatch(/accept-encoding/i);
    const brBytes = Buffer.from(await br.arrayBuffer());
    expect(brBytes.length).toBeLessThan(page.length / 5);
    expect(brotliDecompressSync(brBytes).toString()).toBe(page);

    const gz = await get('/assets/main-3f2a9c1d.js', 'gzip');
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(Buffer.from(await gz.arrayBuffer())).toString()).toBe(script);

    const plain = await get('/assets/main-3f2a9c1d.js', 'identity');
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.headers.get('vary')).toMatch(/accept-encoding/i);
    expect(await plain.text()).toBe(script);
    const tiny = await get('/assets/tiny-00aa11bb.js', 'br');
    expect(tiny.headers.get('content-encoding')).toBeNull();
    expect(await tiny.text()).toBe('export {};');
  });

  it('marks hashed assets immutable for a year, compressed or not, and has pages revalidated', async () => {
    for (const coding of ['br', 'gzip', 'identity']) {
      expect((await get('/assets/main-3f2a9c1d.js', coding)).headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    }
    expect((await get('/', 'br')).headers.get('cache-control')).toBe('no-cache');
  });

  it('negotiates by the q-values of Accept-Encoding', () => {
    expect(negotiateCoding('gzip, br', ['br', 'gzip'])).toBe('br');
    expect(negotiateCoding('br;q=0, gzip', ['br', 'gzip'])).toBe('gzip');
    expect(negotiateCoding('br;q=0.5, gzip;q=0.8', ['br', 'gzip'])).toBe('gzip');
    expect(negotiateCoding('*', ['br', 'gzip'])).toBe('br');
    expect(negotiateCoding('identity', ['br', 'gzip'])).toBeUndefined();
    expect(negotiateCoding(undefined, ['br', 'gzip'])).toBeUndefined();
    expect(negotiateCoding('br', ['gzip'])).toBeUndefined();
  });
});
