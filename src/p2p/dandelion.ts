/**
 * Dandelion++ stem routing (docs/p2p.md "Dandelion++"): a transaction first travels as a `stemtx` along a line of
 * single outbound peers, `hops` of them, before any node announces it; the last one "fluffs" it (announces it by
 * `inv` to everyone, as usual). So the node that diffuses a transaction first is seldom its origin, which is what
 * the first observer of an `inv` would otherwise learn. `mixnet_hops` sets the stem length of one transaction; the
 * node's `mixnet-hops` setting that of its own transactions otherwise.
 *
 * Every node on the stem keeps an embargo: if it has not seen the transaction announced by anyone when the timer
 * fires (a stem peer dropped it, or went away), it fluffs it itself, so a stem never loses a transaction.
 */
import type { Timer } from './transport.ts';

/** The longest stem a transaction may ask for (and the most a received `stemtx` may carry). */
export const stemHopsMax = 16;
/** Embargo before a stem node fluffs a transaction it has not seen announced: uniform in [min, 2·min). */
const stemEmbargoMinMs = 30_000;
/** Stem decisions kept (transactions waiting for admission, embargoes running). */
const stemEntriesMax = 10_000;

type StemDecision = { readonly forward: number } | 'fluff';

export interface StemRoutes {
  /** Our own transaction `id` goes by stem for `hops` hops (0: diffuse at once); call before its admission. */
  markOwn(id: string, hops: number): void;
  /** A `stemtx` arrived with `hops` further forwards to make. */
  markReceived(id: string, hops: number): void;
  /** At admission: forward with `forward` hops left, fluff now, or undefined when nothing was marked. */
  decide(id: string, local: boolean): StemDecision | undefined;
  /** Starts the embargo of a forwarded transaction; `fluff` runs when it expires unseen. */
  embargo(id: string, fluff: () => void): void;
  /** Someone announced `id`: its stem is over, cancel the embargo. */
  seenAnnounced(id: string): void;
  close(): void;
}

export function createStemRoutes(options: { defaultHops: number; timer: Timer; randomInt: (n: number) => number; embargoMinMs?: number }): StemRoutes {
  const marked = new Map<string, number>();
  const embargoes = new Map<string, () => void>();
  const embargoMinMs = options.embargoMinMs ?? stemEmbargoMinMs;
  const bound = <V>(map: Map<string, V>, onDrop?: (v: V) => void) => {
    while (map.size > stemEntriesMax) {
      const [key, value] = map.entries().next().value as [string, V];
      map.delete(key);
      onDrop?.(value);
    }
  };
  return {
    markOwn(id, hops) {
      marked.set(id, hops);
      bound(marked);
    },
    markReceived(id, hops) {
      marked.set(id, hops);
      bound(marked);
    },
    decide(id, local) {
      const hops = marked.get(id) ?? (local ? options.defaultHops : undefined);
      marked.delete(id);
      if (hops === undefined) return undefined;
      return hops > 0 ? { forward: hops - 1 } : 'fluff';
    },
    embargo(id, fluff) {
      embargoes.get(id)?.();
      const cancel = options.timer.setTimeout(() => {
        embargoes.delete(id);
        fluff();
      }, embargoMinMs + options.randomInt(embargoMinMs));
      embargoes.set(id, cancel);
      bound(embargoes, (c) => c());
    },
    seenAnnounced(id) {
      const cancel = embargoes.get(id);
      if (cancel === undefined) return;
      embargoes.delete(id);
      cancel();
    },
    close() {
      for (const cancel of embargoes.values()) cancel();
      embargoes.clear();
      marked.clear();
    },
  };
}
