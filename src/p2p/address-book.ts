/**
 * The address book and the ban list (docs/p2p.md "Peers"). Addresses come from addnode, from peers' addr messages
 * and from the listen port of peers that connected to us; each remembers when it was last seen and how many dials
 * failed in a row, which sets its backoff. Bans are by identity — `ip:<address>` or `node:<NodeID hex>` — with an
 * expiry. Both are bounded (oldest first out) and serialise to plain JSON, which the host persists in the datadir.
 */
import { p2pAddressBookEntriesMax, p2pBanEntriesMax, p2pReconnectDelayMaxMs, p2pReconnectDelayMinMs } from './limits.ts';

interface AddressEntry {
  readonly host: string;
  readonly port: number;
  /** NodeID hex when known (pinned on dial), else ''. */
  nodeId: string;
  lastSeenMs: number;
  lastAttemptMs: number;
  /** Dials that failed in a row; reset by a successful handshake. */
  failures: number;
}

interface BanEntry {
  readonly identity: string;
  readonly untilMs: number;
  readonly reason: string;
}

export interface PersistedPeers {
  readonly version: 1;
  readonly addresses: readonly AddressEntry[];
  readonly bans: readonly BanEntry[];
}

/** Where the book lives between runs (the node: a JSON file in the datadir; a browser: IndexedDB). */
export interface PeerStore {
  load(): PersistedPeers | undefined;
  save(data: PersistedPeers): void;
}

export interface AddressBook {
  add(host: string, port: number, seenMs: number, nodeId?: string): void;
  get(host: string, port: number): AddressEntry | undefined;
  markAttempt(host: string, port: number, nowMs: number): void;
  markFailure(host: string, port: number): void;
  markSuccess(host: string, port: number, nowMs: number, nodeId: string): void;
  /** Entries whose backoff has passed, not in `exclude` (keys `host:port`), in random order. */
  dialable(nowMs: number, exclude: ReadonlySet<string>, randomInt: (n: number) => number): AddressEntry[];
  /** Up to `max` entries in random order (answers getaddr). */
  sample(max: number, randomInt: (n: number) => number): AddressEntry[];
  ban(identity: string, untilMs: number, reason: string): void;
  isBanned(identity: string, nowMs: number): boolean;
  bans(nowMs: number): BanEntry[];
  size(): number;
  snapshot(nowMs: number): PersistedPeers;
}

export const addressKey = (host: string, port: number): string => (host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`);

/** The delay before the next dial after `failures` failures in a row. */
export function backoffMs(failures: number, maxMs: number = p2pReconnectDelayMaxMs): number {
  return failures === 0 ? 0 : Math.min(maxMs, p2pReconnectDelayMinMs * 2 ** Math.min(failures - 1, 30));
}

function shuffle<T>(items: T[], randomInt: (n: number) => number): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

export function createAddressBook(loaded?: PersistedPeers, capacity: number = p2pAddressBookEntriesMax): AddressBook {
  const entries = new Map<string, AddressEntry>();
  const bans = new Map<string, BanEntry>();

  const put = (entry: AddressEntry): void => {
    const key = addressKey(entry.host, entry.port);
    entries.delete(key);
    entries.set(key, entry);
    while (entries.size > capacity) entries.delete(entries.keys().next().value as string);
  };
  for (const e of loaded?.addresses ?? []) {
    if (typeof e.host === 'string' && Number.isInteger(e.port) && e.port > 0 && e.port < 65536) {
      put({ host: e.host, port: e.port, nodeId: String(e.nodeId ?? ''), lastSeenMs: Number(e.lastSeenMs) || 0, lastAttemptMs: 0, failures: 0 });
    }
  }
  for (const b of loaded?.bans ?? []) if (typeof b.identity === 'string' && Number.isFinite(b.untilMs)) bans.set(b.identity, { ...b });

  const book: AddressBook = {
    add(host, port, seenMs, nodeId) {
      if (port <= 0 || port > 65535 || host === '') return;
      const key = addressKey(host, port);
      const old = entries.get(key);
      if (old) {
        old.lastSeenMs = Math.max(old.lastSeenMs, seenMs);
        if (nodeId) old.nodeId = nodeId;
        return;
      }
      put({ host, port, nodeId: nodeId ?? '', lastSeenMs: seenMs, lastAttemptMs: 0, failures: 0 });
    },
    get: (host, port) => entries.get(addressKey(host, port)),
    markAttempt(host, port, nowMs) {
      const e = entries.get(addressKey(host, port));
      if (e) e.lastAttemptMs = nowMs;
    },
    markFailure(host, port) {
      const e = entries.get(addressKey(host, port));
      if (e) e.failures++;
    },
    markSuccess(host, port, nowMs, nodeId) {
      const key = addressKey(host, port);
      const e = entries.get(key);
      if (!e) return book.add(host, port, nowMs, nodeId);
      e.failures = 0;
      e.lastSeenMs = nowMs;
      e.nodeId = nodeId;
      put(e);
    },
    dialable(nowMs, exclude, randomInt) {
      const out = [...entries.values()].filter(
        (e) => !exclude.has(addressKey(e.host, e.port)) && nowMs >= e.lastAttemptMs + backoffMs(e.failures) && !book.isBanned(`ip:${e.host}`, nowMs),
      );
      return shuffle(out, randomInt);
    },
    sample: (max, randomInt) => shuffle([...entries.values()], randomInt).slice(0, max),
    ban(identity, untilMs, reason) {
      bans.delete(identity);
      bans.set(identity, { identity, untilMs, reason });
      while (bans.size > p2pBanEntriesMax) bans.delete(bans.keys().next().value as string);
    },
    isBanned(identity, nowMs) {
      const ban = bans.get(identity);
      if (!ban) return false;
      if (ban.untilMs > nowMs) return true;
      bans.delete(identity);
      return false;
    },
    bans: (nowMs) => [...bans.values()].filter((b) => b.untilMs > nowMs),
    size: () => entries.size,
    snapshot: (nowMs) => ({ version: 1, addresses: [...entries.values()].map((e) => ({ ...e })), bans: book.bans(nowMs) }),
  };
  return book;
}
