/**
 * Push-notification delivery (A2A 1.0 §4.3.3): each task event is POSTed as a StreamResponse to every webhook of
 * the task, with `Authorization: <scheme> <credentials>` from the config's `authentication` and the config's token
 * in `X-A2A-Notification-Token` (the a2a-js convention; 1.0 names no header for it). At least once: an attempt
 * that fails or answers non-2xx is retried with doubling backoff; events of one config go out in order.
 *
 * SSRF guard: only http(s) URLs whose every resolved address is public (no loopback, private, link-local, CGNAT,
 * unique-local, multicast or unspecified address) — unless the host is in `allowHosts`, the explicit allowlist for
 * receivers on a private network (the node's `push-allow-hosts` config key; tests, a sidecar): a host name, an IP
 * literal, or an IPv4 CIDR range that the resolved addresses fall in. The check runs when a config is created and
 * again before each delivery.
 */
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { A2aError } from '../../src/a2a/errors.ts';
import { a2aPushAttemptsMax, a2aPushQueueEventsMax, a2aPushRetryBaseMs, a2aPushTimeoutMs } from '../../src/a2a/limits.ts';
import type { PushDispatcher } from '../../src/a2a/runner/state.ts';
import type { StreamResponse, TaskPushNotificationConfig } from '../../src/a2a/types.ts';

export interface PushSenderOptions {
  /** Host names, IP literals or IPv4 CIDR ranges (`10.0.0.0/8`) that may be private (the allowlist for local receivers). */
  readonly allowHosts?: readonly string[];
  readonly attemptsMax?: number;
  readonly retryBaseMs?: number;
  readonly timeoutMs?: number;
  readonly onDeliveryFailed?: (config: TaskPushNotificationConfig, error: unknown) => void;
}

export interface PushSender extends PushDispatcher {
  /** Throws InvalidParams when the URL is not an allowed webhook target. */
  validate(url: string): Promise<void>;
  /** Resolves when every queued delivery has finished (delivered or given up). */
  idle(): Promise<void>;
  close(): void;
}

function ipv4Private(ip: string): boolean {
  const [a = 0, b = 0] = ip.split('.').map(Number);
  return a === 0 || a === 10 || a === 127 || (a === 169 && b === 254) || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 100 && b >= 64 && b <= 127) || a >= 224;
}

/** True for addresses a webhook must not reach without the allowlist. */
export function isPrivateAddress(ip: string): boolean {
  if (isIP(ip) === 4) return ipv4Private(ip);
  const lower = ip.toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (mapped) return ipv4Private(mapped[1]!);
  return lower === '::' || lower === '::1' || /^f[cd]/.test(lower) || /^fe[89ab]/.test(lower) || lower.startsWith('ff');
}

const ipv4Number = (ip: string): number => ip.split('.').reduce((n, o) => n * 256 + Number(o), 0);

/** `10.0.0.0/8` → a test for IPv4 addresses (also IPv4-mapped IPv6) inside it; undefined for anything else. */
function cidrTest(entry: string): ((ip: string) => boolean) | undefined {
  const m = /^(\d{1,3}(?:\.\d{1,3}){3})\/(\d{1,2})$/.exec(entry);
  if (!m) return undefined;
  const bits = Number(m[2]);
  const size = 2 ** (32 - bits);
  const base = Math.floor(ipv4Number(m[1]!) / size) * size;
  return (ip) => {
    const v4 = /^(?:::ffff:)?(\d+\.\d+\.\d+\.\d+)$/i.exec(ip)?.[1];
    return v4 !== undefined && isIP(v4) === 4 && Math.floor(ipv4Number(v4) / size) * size === base;
  };
}

const invalidUrl = (message: string) => new A2aError('invalid_params', message, { field: 'url' });

export function createPushSender(options: PushSenderOptions = {}): PushSender {
  const allow = new Set((options.allowHosts ?? []).map((h) => h.toLowerCase()));
  const ranges = [...allow].map(cidrTest).filter((t): t is (ip: string) => boolean => t !== undefined);
  const allowedAddress = (ip: string) => allow.has(ip.toLowerCase()) || ranges.some((inRange) => inRange(ip));
  const attemptsMax = options.attemptsMax ?? a2aPushAttemptsMax;
  const retryBaseMs = options.retryBaseMs ?? a2aPushRetryBaseMs;
  const timeoutMs = options.timeoutMs ?? a2aPushTimeoutMs;
  const queues = new Map<string, { items: StreamResponse[]; config: TaskPushNotificationConfig; running: Promise<void> | undefined }>();
  const controller = new AbortController();

  async function validate(url: string): Promise<void> {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw invalidUrl(`url: not a URL`);
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw invalidUrl(`url: scheme ${parsed.protocol} not allowed (http or https)`);
    const host = parsed.hostname.replace(/^\[|\]$/g, '').toLowerCase();
    if (allow.has(host)) return;
    const addresses = isIP(host) ? [host] : (await lookup(host, { all: true, verbatim: true }).catch(() => [])).map((a) => a.address);
    if (addresses.length === 0) throw invalidUrl(`url: host ${host} does not resolve`);
    const blocked = addresses.find((ip) => isPrivateAddress(ip) && !allowedAddress(ip));
    if (blocked) throw invalidUrl(`url: ${host} resolves to ${blocked}, a private address (allow it with the node's push-allow-hosts config key)`);
  }

  async function deliver(config: TaskPushNotificationConfig, event: StreamResponse): Promise<void> {
    const headers: Record<string, string> = { 'content-type': 'application/a2a+json', 'a2a-version': '1.0' };
    if (config.authentication) headers.authorization = `${config.authentication.scheme} ${config.authentication.credentials ?? ''}`.trim();
    if (config.token) headers['x-a2a-notification-token'] = config.token;
    let lastError: unknown;
    for (let attempt = 0; attempt < attemptsMax && !controller.signal.aborted; attempt++) {
      if (attempt > 0) await new Promise((r) => setTimeout(r, retryBaseMs * 2 ** (attempt - 1)));
      try {
        await validate(config.url);
        const response = await fetch(config.url, {
          method: 'POST',
          headers,
          body: JSON.stringify(event),
          redirect: 'manual',
          signal: AbortSignal.any([controller.signal, AbortSignal.timeout(timeoutMs)]),
        });
        await response.arrayBuffer().catch(() => undefined);
        if (response.status >= 200 && response.status < 300) return;
        lastError = new Error(`webhook answered ${response.status}`);
      } catch (error) {
        lastError = error;
      }
    }
    options.onDeliveryFailed?.(config, lastError);
  }

  function pump(key: string): void {
    const queue = queues.get(key);
    if (!queue || queue.running) return;
    queue.running = (async () => {
      for (let event = queue.items.shift(); event !== undefined; event = queue.items.shift()) await deliver(queue.config, event);
      queue.running = undefined;
      queues.delete(key);
    })();
  }

  return {
    validate,
    dispatch(config, event) {
      if (controller.signal.aborted) return;
      const key = `${config.taskId}\u0000${config.id}`;
      const queue = queues.get(key) ?? { items: [], config, running: undefined };
      if (queue.items.length >= a2aPushQueueEventsMax) queue.items.shift();
      queue.items.push(event);
      queues.set(key, queue);
      pump(key);
    },
    async idle() {
      while (queues.size > 0) await Promise.all([...queues.values()].map((q) => q.running));
    },
    close() {
      controller.abort();
    },
  };
}
