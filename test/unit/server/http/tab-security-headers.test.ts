// Issue 34, security headers (docs/web.md "Security headers"): every page and asset of the web app, and the node's
// own answers, carry a strict CSP (no inline script, connections only to the origin and its own WebSocket port),
// nosniff and no-referrer; every page but the widget refuses framing; a route's own stricter policy is kept; a
// hostile Host header cannot inject a source.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Hono } from 'hono';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../../server/config.ts';
import { contentSecurityPolicy, hostOfHostHeader, securityHeaders } from '../../../../server/http/security-headers.ts';
import { statusPage } from '../../../../server/http/status-page.ts';
import { mountWebApp } from '../../../../server/http/web-app.ts';

const dist = mkdtempSync(join(tmpdir(), 'weft-csp-'));
mkdirSync(join(dist, 'web'));
mkdirSync(join(dist, 'assets'));
for (const page of ['index', 'wallet', 'widget', 'miner', 'kernel-check']) writeFileSync(join(dist, 'web', `${page}.html`), `<!doctype html><title>${page}</title>`);
writeFileSync(join(dist, 'assets', 'app.js'), 'export {};');
writeFileSync(join(dist, 'weft-wallet.js'), '(()=>{})();');
afterAll(() => rmSync(dist, { recursive: true, force: true }));

const wsPort = 18_081;
function app(): Hono {
  const a = new Hono();
  a.use('*', securityHeaders({ wsPort: () => wsPort }));
  a.get('/own-policy', (c) => c.html('<p>consent</p>', 200, { 'content-security-policy': "default-src 'none'", 'x-frame-options': 'SAMEORIGIN' }));
  mountWebApp(a, { network: 'regtest', wsPort: () => wsPort, distDir: dist });
  return a;
}
const get = (path: string, host = '127.0.0.1:8080') => app().request(path, { headers: { host } });

describe('security headers', () => {
  it('gives every page but the widget a strict policy that refuses framing', async () => {
    for (const path of ['/', '/wallet.html', '/miner.html', '/kernel-check.html', '/status']) {
      const h = (await get(path)).headers;
      expect(h.get('content-security-policy'), path).toBe(
        "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; "
          + `connect-src 'self' ws://127.0.0.1:${wsPort} wss://127.0.0.1:${wsPort}; worker-src 'self' blob:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'`,
      );
      expect(h.get('x-frame-options'), path).toBe('DENY');
      expect(h.get('x-content-type-options'), path).toBe('nosniff');
      expect(h.get('referrer-policy'), path).toBe('no-referrer');
    }
  });

  it('keeps the widget frameable by any site under the same script and connect rules', async () => {
    const h = (await get('/widget.html')).headers;
    const csp = h.get('content-security-policy')!;
    expect(csp).toContain('frame-ancestors *');
    expect(csp).toContain("script-src 'self' 'wasm-unsafe-eval'");
    expect(csp).toContain(`connect-src 'self' ws://127.0.0.1:${wsPort} wss://127.0.0.1:${wsPort}`);
    expect(h.get('x-frame-options')).toBeNull();
    expect(h.get('x-content-type-options')).toBe('nosniff');
  });

  it('covers assets, the embeddable script, web-config, icons and not-found answers', async () => {
    for (const path of ['/assets/app.js', '/weft-wallet.js', '/web-config.json', '/favicon.ico', '/status.js', '/no-such-page']) {
      const h = (await get(path)).headers;
      expect(h.get('x-content-type-options'), path).toBe('nosniff');
      expect(h.get('referrer-policy'), path).toBe('no-referrer');
      expect(h.get('content-security-policy'), path).toContain("script-src 'self' 'wasm-unsafe-eval'");
    }
  });

  it('keeps a route’s own stricter policy', async () => {
    const h = (await get('/own-policy')).headers;
    expect(h.get('content-security-policy')).toBe("default-src 'none'");
    expect(h.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(h.get('x-content-type-options')).toBe('nosniff');
  });

  it('names the WebSocket endpoint only for a well-formed Host', async () => {
    expect(hostOfHostHeader('node.example:8080')).toBe('node.example');
    expect(hostOfHostHeader('[::1]:8080')).toBe('[::1]');
    expect(hostOfHostHeader("evil; script-src *")).toBeUndefined();
    expect(hostOfHostHeader('a b')).toBeUndefined();
    const csp = (await get('/wallet.html', "x.example; script-src 'unsafe-inline'")).headers.get('content-security-policy')!;
    expect(csp).toContain("connect-src 'self'; ");
    expect(csp).not.toContain('unsafe-inline\'; worker');
    expect(csp.match(/script-src/g)).toHaveLength(1);
    expect(contentSecurityPolicy({ host: '[::1]', wsPort: 8081, frameAncestors: ["'none'"] })).toContain("connect-src 'self' ws://[::1]:8081 wss://[::1]:8081;");
  });

  it('the status page runs no inline script (its script is /status.js)', async () => {
    expect(statusPage).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    const script = await get('/status.js');
    expect(script.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(await script.text()).toContain("fetch('/health')");
  });

  it('lets the operator name who may frame the widget (--widget-frame-ancestors), and refuses a source that could break out', async () => {
    expect(loadConfig(['--network', 'regtest']).widgetFrameAncestors).toEqual(['*']);
    const config = loadConfig(['--network', 'regtest', '--widget-frame-ancestors', 'https://shop.example,https://*.b.example:8443']);
    expect(config.widgetFrameAncestors).toEqual(['https://shop.example', 'https://*.b.example:8443']);
    expect(() => loadConfig(['--network', 'regtest', '--widget-frame-ancestors', "https://x.example; script-src 'unsafe-inline'"])).toThrow(ConfigError);
    expect(() => loadConfig(['--network', 'regtest', '--widget-frame-ancestors', "'self'"])).toThrow(/not \* or an origin/);
    const narrowed = new Hono();
    narrowed.use('*', securityHeaders({ wsPort: () => wsPort, widgetFrameAncestors: config.widgetFrameAncestors! }));
    mountWebApp(narrowed, { network: 'regtest', wsPort: () => wsPort, distDir: dist });
    const widget = await narrowed.request('/widget.html', { headers: { host: '127.0.0.1:8080' } });
    expect(widget.headers.get('content-security-policy')).toMatch(/frame-ancestors https:\/\/shop\.example https:\/\/\*\.b\.example:8443$/);
    const wallet = await narrowed.request('/wallet.html', { headers: { host: '127.0.0.1:8080' } });
    expect(wallet.headers.get('content-security-policy')).toMatch(/frame-ancestors 'none'$/);
  });
});

describe('the status page (issue 32)', () => {
  const withHealth = (): Hono => {
    const a = new Hono();
    mountWebApp(a, { network: 'regtest', wsPort: () => wsPort, distDir: dist, health: () => ({ status: 'ok', height: 7 }) });
    return a;
  };
  it('is a page for a browser and the /health object for a client that asks for JSON', async () => {
    const browser = await withHealth().request('/status', { headers: { accept: 'text/html,application/xhtml+xml,application/json;q=0.9,*/*;q=0.8' } });
    expect(browser.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await browser.text()).toContain('<title>Weft node</title>');
    const client = await withHealth().request('/status', { headers: { accept: 'application/json' } });
    expect(client.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await client.json()).toEqual({ status: 'ok', height: 7 });
    expect((await withHealth().request('/status')).headers.get('content-type')).toMatch(/^text\/html/);
  });
  it('writes /health in words, not a JSON dump', async () => {
    const script = await (await get('/status.js')).text();
    expect(script).not.toContain('JSON.stringify');
    expect(script).toContain("uptime_seconds: 'uptime'");
  });
});
