/**
 * The SSRF guard of push delivery (docs/a2a.md "Push notifications"): only http(s) URLs whose every resolved address
 * is public (no loopback, private, link-local, CGNAT, unique-local, multicast or unspecified address) — unless the
 * host is in the allowlist for receivers on a private network (the node's `push-allow-hosts`): a host name, an IP
 * literal, or an IPv4 CIDR range that the resolved addresses fall in.
 */
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { A2aError } from '../../../src/a2a/errors.ts';

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

/** The allowlist, parsed once: lowercase entries, and the CIDR ranges among them as tests. */
export interface WebhookAllowlist {
  readonly hosts: ReadonlySet<string>;
  readonly ranges: readonly ((ip: string) => boolean)[];
}

export function webhookAllowlist(entries: readonly string[]): WebhookAllowlist {
  const hosts = new Set(entries.map((h) => h.toLowerCase()));
  return { hosts, ranges: [...hosts].map(cidrTest).filter((t): t is (ip: string) => boolean => t !== undefined) };
}

const allowedAddress = (allow: WebhookAllowlist, ip: string) => allow.hosts.has(ip.toLowerCase()) || allow.ranges.some((inRange) => inRange(ip));

const invalidUrl = (message: string) => new A2aError('invalid_params', message, { field: 'url' });

/** Throws InvalidParams when the URL is not an allowed webhook target (checked at create and before each delivery). */
export async function validateWebhookUrl(allow: WebhookAllowlist, url: string): Promise<void> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalidUrl(`url: not a URL`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw invalidUrl(`url: scheme ${parsed.protocol} not allowed (http or https)`);
  const host = parsed.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (allow.hosts.has(host)) return;
  const addresses = isIP(host) ? [host] : (await lookup(host, { all: true, verbatim: true }).catch(() => [])).map((a) => a.address);
  if (addresses.length === 0) throw invalidUrl(`url: host ${host} does not resolve`);
  const blocked = addresses.find((ip) => isPrivateAddress(ip) && !allowedAddress(allow, ip));
  if (blocked) throw invalidUrl(`url: ${host} resolves to ${blocked}, a private address (allow it with the node's push-allow-hosts config key)`);
}
