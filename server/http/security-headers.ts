/**
 * The security headers on every page, asset and answer of the node's HTTP app (docs/web.md "Threat model"):
 *
 * - Content-Security-Policy: scripts only from the node's own origin (plus WebAssembly compilation, which the light
 *   node's BLAKE3 and the miner need) — no inline script, no eval; connections only to the origin itself and the
 *   node's own WebSocket port on the host the page was loaded from (JSON-RPC and the p2p bridge), so a page cannot
 *   be made to talk to another node even by a script bug; workers from the origin; no plugins; no <base> rewriting.
 *   Styles allow inline `style=` attributes (the pages use a few; a style cannot run code).
 * - Framing: `frame-ancestors 'none'` and `X-Frame-Options: DENY` on every page but the widget, so no site can
 *   overlay the wallet, explorer, miner or status page on its own; widget.html stays frameable (that is its job:
 *   docs/widget.md) by the operator's `--widget-frame-ancestors` (any site by default), and defends against a hostile embedder itself
 *   (it approves only while fully visible, web/widget/approve-gate.ts).
 * - `X-Content-Type-Options: nosniff` and `Referrer-Policy: no-referrer` everywhere.
 *
 * A route that sets its own, stricter policy (the OAuth consent page, the alert pages) keeps it: headers a response
 * already has are left alone.
 */
import type { MiddlewareHandler } from 'hono';

export interface SecurityHeadersOptions {
  /** The WebSocket port once it is listening (config.wsPort may be 0 until then). */
  readonly wsPort: () => number;
  /** Who may frame widget.html: CSP frame-ancestors sources (`--widget-frame-ancestors`); `['*']` (any site) by default. */
  readonly widgetFrameAncestors?: readonly string[];
}

/** The pages that may be framed by other sites: the embeddable wallet's frame only. */
const frameablePaths: ReadonlySet<string> = new Set(['/widget.html']);

/** A Host header's host part (`127.0.0.1`, `node.example`, `[::1]`), or undefined for anything else. */
export function hostOfHostHeader(value: string | undefined): string | undefined {
  const match = /^(\[[0-9a-f:.]+\]|[a-z0-9](?:[a-z0-9.-]{0,251}[a-z0-9])?)(?::\d{1,5})?$/i.exec(value ?? '');
  return match?.[1]?.toLowerCase();
}

/**
 * The policy for one response. `host` is where the page was loaded from (its Host header); without one, only the
 * origin itself is reachable (the page then cannot open its WebSocket, which is safe).
 */
export function contentSecurityPolicy(options: { host: string | undefined; wsPort: number; frameAncestors: readonly string[] }): string {
  const sockets = options.host === undefined ? [] : [`ws://${options.host}:${options.wsPort}`, `wss://${options.host}:${options.wsPort}`];
  return [
    "default-src 'self'",
    "script-src 'self' 'wasm-unsafe-eval'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    `connect-src 'self' ${sockets.join(' ')}`.trimEnd(),
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'none'",
    `frame-ancestors ${options.frameAncestors.join(' ')}`,
  ].join('; ');
}

export function securityHeaders(options: SecurityHeadersOptions): MiddlewareHandler {
  const widgetAncestors = options.widgetFrameAncestors ?? ['*'];
  return async (c, next) => {
    await next();
    const headers = c.res.headers;
    const frameable = frameablePaths.has(c.req.path);
    const setIfAbsent = (name: string, value: string) => {
      if (!headers.has(name)) headers.set(name, value);
    };
    setIfAbsent('content-security-policy', contentSecurityPolicy({
      host: hostOfHostHeader(c.req.header('host')), wsPort: options.wsPort(), frameAncestors: frameable ? widgetAncestors : ["'none'"],
    }));
    if (!frameable) setIfAbsent('x-frame-options', 'DENY');
    setIfAbsent('x-content-type-options', 'nosniff');
    setIfAbsent('referrer-policy', 'no-referrer');
  };
}
