// The dialer's reconnect timing (src/p2p/dialer.ts, docs/p2p.md "Peers"): each manual peer backs off on its own,
// the round timer only moves earlier, and a peer coming back (the network is up again) redials every manual peer
// at once, and a manual peer's backoff stops at 2 s (a partition that heals while each side stays connected inside
// brings no peer back). Before, one shared timer was reset by every failure, and nothing reset a backoff when the
// network came back, so after a partition of minutes every link waited up to the 60 s cap before its first retry.
import { describe, expect, it } from 'vitest';
import { createAddressBook } from '../../../src/p2p/address-book.ts';
import { createDialer, type Dialer } from '../../../src/p2p/dialer.ts';
import { p2pManualReconnectDelayMaxMs } from '../../../src/p2p/limits.ts';
import { silentLogger } from '../../../src/p2p/logger.ts';
import type { Peer } from '../../../src/p2p/peer.ts';
import type { DuplexPort, Timer } from '../../../src/p2p/transport.ts';
import { createManualClock } from '../../../src/util/clock.ts';

/** A timer driven by the manual clock: `advance` runs every callback that falls due, in order. */
function createManualTimer(clock: ReturnType<typeof createManualClock>) {
  let pending: { dueMs: number; run: () => void; live: boolean }[] = [];
  const timer: Timer = {
    setTimeout(run, delayMs) {
      const entry = { dueMs: clock.nowMs() + delayMs, run, live: true };
      pending.push(entry);
      return () => void (entry.live = false);
    },
  };
  const advance = async (ms: number) => {
    const end = clock.nowMs() + ms;
    for (;;) {
      pending = pending.filter((e) => e.live);
      const next = pending.filter((e) => e.dueMs <= end).sort((a, b) => a.dueMs - b.dueMs)[0];
      if (next === undefined) break;
      clock.set(Math.max(clock.nowMs(), next.dueMs));
      next.live = false;
      next.run();
      await new Promise((resolve) => setImmediate(resolve)); // let dial promises settle
    }
    clock.set(end);
  };
  return { timer, advance };
}

function setup(seeds: readonly { host: string; port: number }[]) {
  const clock = createManualClock(1_000_000);
  const { timer, advance } = createManualTimer(clock);
  let networkUp = false;
  const dials: { host: string; port: number; atMs: number }[] = [];
  const peers = new Set<Peer>();
  const dialer: Dialer = createDialer({
    book: createAddressBook(),
    clock,
    timer,
    log: silentLogger,
    seeds,
    connectOnly: false,
    outboundMax: 8,
    ownNodeId: new Uint8Array(32),
    peers,
    randomInt: () => 0,
    dial: async (host, port) => {
      dials.push({ host, port, atMs: clock.nowMs() });
      if (!networkUp) throw new Error('connect ECONNREFUSED');
      return {} as DuplexPort;
    },
    startPeer: async (_port, host, port) => {
      peers.add({ direction: 'outbound', endpoint: { host, port, transport: 'tcp' }, nodeIdHex: `${host}:${port}` } as unknown as Peer);
    },
    persist: () => undefined,
    isClosed: () => false,
  });
  return { clock, advance, dialer, dials, peers, setNetwork: (up: boolean) => void (networkUp = up) };
}

describe('dialer reconnects', () => {
  it('redials every manual peer as soon as a peer comes back, whatever their backoff', async () => {
    const n = setup([{ host: '10.0.0.1', port: 2080 }, { host: '10.0.0.2', port: 2080 }]);
    n.dialer.start();
    // Three minutes of partition: both links back off to the cap.
    await n.advance(180_000);
    const last = n.dials.at(-1)!.atMs;
    expect(n.dials.length).toBeGreaterThan(6);
    n.setNetwork(true);
    // The network is back before the links' next retry is due; an inbound peer connects first. Both manual links are
    // redialled at once.
    await n.advance(Math.max(0, last + p2pManualReconnectDelayMaxMs / 2 - n.clock.nowMs()));
    const upAt = n.clock.nowMs();
    expect(last + p2pManualReconnectDelayMaxMs - upAt).toBeGreaterThan(100); // the next retry was still to come
    n.dialer.networkUp();
    await n.advance(10);
    const after = n.dials.filter((d) => d.atMs > last);
    expect(after.map((d) => d.host).sort()).toEqual(['10.0.0.1', '10.0.0.2']);
    expect(Math.max(...after.map((d) => d.atMs)) - upAt).toBeLessThanOrEqual(10);
    expect(n.peers.size).toBe(2);
  });

  it('retries a manual peer at least every 2 s however long it has been down: a healed partition brings no peer back', async () => {
    const n = setup([{ host: '10.0.0.1', port: 2080 }]);
    n.dialer.start();
    await n.advance(600_000);
    const times = n.dials.map((d) => d.atMs);
    const gaps = times.slice(1).map((t, i) => t - times[i]!);
    // (The first retry waits for the start's round timer in this manual clock; every later one is the cap.)
    expect(gaps.length).toBeGreaterThan(250);
    expect(new Set(gaps.slice(1))).toEqual(new Set([p2pManualReconnectDelayMaxMs]));
    // The network returns with no peer to announce it: the link is back within the cap.
    n.setNetwork(true);
    const upAt = n.clock.nowMs();
    await n.advance(p2pManualReconnectDelayMaxMs);
    expect(n.peers.size).toBe(1);
    expect(n.dials.at(-1)!.atMs - upAt).toBeLessThanOrEqual(p2pManualReconnectDelayMaxMs);
  });

  it('keeps each manual peer on its own backoff: a long one never delays a short one', async () => {
    const n = setup([{ host: '10.0.0.1', port: 2080 }]);
    n.dialer.start();
    await n.advance(120_000); // 10.0.0.1 at the manual cap (2 s), last tried at 119 s
    // A second manual link drops now and asks for a round sooner than the capped peer's retry.
    const atCap = n.dials.length;
    n.dialer.scheduleRound(500);
    await n.advance(500);
    expect(n.dials.length).toBe(atCap); // nothing due yet for the capped peer: no dial, but the round ran
    // The capped peer is retried when its own backoff ends, not later, however the timer was moved meanwhile.
    const lastAttempt = n.dials.at(-1)!.atMs;
    await n.advance(p2pManualReconnectDelayMaxMs + 10);
    const next = n.dials.find((d) => d.atMs > lastAttempt)!;
    expect(next.atMs - lastAttempt).toBe(p2pManualReconnectDelayMaxMs);
  });

  it('does not turn a reconnecting peer into a redial loop', async () => {
    const n = setup([{ host: '10.0.0.1', port: 2080 }]);
    n.dialer.start();
    await n.advance(30_000);
    const before = n.dials.length;
    for (let i = 0; i < 50; i++) {
      n.dialer.networkUp();
      await n.advance(10);
    }
    // 50 "comebacks" within half a second: one early redial at most, then the backoff again.
    expect(n.dials.length - before).toBeLessThanOrEqual(1);
  });
});
