/**
 * Watches the running node for conditions worth an alert (docs/alerts.md "Events"): no peers for a while (when the
 * node is meant to have some), a stalled chain, peers announcing a newer version, bans, and floods of invalid
 * blocks. `tick()` runs on a timer; the p2p layer reports bans and invalid blocks as they happen. Each condition is
 * raised once when it starts and re-armed when it clears; the alert service adds a cooldown on top.
 */
import type { Clock } from '../../src/util/clock.ts';
import type { AlertEvent } from './alert-events.ts';
import { chainStallMs, invalidBlockFloodCount, invalidBlockFloodWindowMs, noPeersMs } from './alert-limits.ts';

export interface MonitorSource {
  /** Height of the selected tip. */
  height(): number;
  peerCount(): number;
  /** Versions peers announce (user agents like `weft/2.1.0` are fine). */
  peerVersions(): readonly string[];
  /** False for a node that runs alone on purpose (no addnode, a solo devnet): no_peers is then no alert. */
  expectPeers(): boolean;
  /** A node that mines alone on an isolated devnet still expects blocks; one with no miner and no peers does not. */
  expectBlocks(): boolean;
}

export interface NodeMonitor {
  tick(): void;
  /** The chain accepted a block. */
  noteBlock(): void;
  notePeerBanned(peer: string, reason: string): void;
  noteInvalidBlock(): void;
  /** The chain refused a heavier chain that leaves its finality point. */
  noteFinalityConflict(block: string, finalityPoint: string): void;
}

/** `weft/2.1.0`, `2.1.0`, `/weft:2.1.0/` → [2, 1, 0]; undefined when no version is in it. */
function parseVersion(text: string): [number, number, number] | undefined {
  const m = /(\d+)\.(\d+)\.(\d+)/.exec(text);
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : undefined;
}

function newer(a: [number, number, number], b: [number, number, number]): boolean {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i]! > b[i]!;
  return false;
}

export function createNodeMonitor(options: { clock: Clock; source: MonitorSource; version: string; raise: (event: AlertEvent) => void }): NodeMonitor {
  const { clock, source, raise } = options;
  const ours = parseVersion(options.version);
  let lastBlockAtMs = clock.nowMs();
  let stallRaised = false;
  let noPeersSinceMs: number | undefined;
  let noPeersRaised = false;
  const versionsRaised = new Set<string>();
  const invalidAtMs: number[] = [];

  return {
    tick() {
      const now = clock.nowMs();
      if (source.expectBlocks() && !stallRaised && now - lastBlockAtMs >= chainStallMs) {
        stallRaised = true;
        raise({ kind: 'chain_stalled', lastBlockAtMs, height: source.height() });
      }
      if (source.expectPeers() && source.peerCount() === 0) {
        noPeersSinceMs ??= now;
        if (!noPeersRaised && now - noPeersSinceMs >= noPeersMs) {
          noPeersRaised = true;
          raise({ kind: 'no_peers', sinceMs: noPeersSinceMs });
        }
      } else {
        noPeersSinceMs = undefined;
        noPeersRaised = false;
      }
      if (ours === undefined) return;
      for (const text of source.peerVersions()) {
        const theirs = parseVersion(text);
        if (theirs === undefined || !newer(theirs, ours)) continue;
        const version = theirs.join('.');
        if (versionsRaised.has(version)) continue;
        versionsRaised.add(version);
        raise({ kind: 'newer_version', version, ours: ours.join('.') });
      }
    },
    noteBlock() {
      lastBlockAtMs = clock.nowMs();
      stallRaised = false;
    },
    notePeerBanned(peer, reason) {
      raise({ kind: 'peer_banned', peer, reason });
    },
    noteFinalityConflict(block, finalityPoint) {
      raise({ kind: 'finality_conflict', block, finalityPoint });
    },
    noteInvalidBlock() {
      const now = clock.nowMs();
      invalidAtMs.push(now);
      while (invalidAtMs.length > 0 && now - invalidAtMs[0]! > invalidBlockFloodWindowMs) invalidAtMs.shift();
      if (invalidAtMs.length >= invalidBlockFloodCount) {
        raise({ kind: 'invalid_block_flood', count: invalidAtMs.length, windowMs: invalidBlockFloodWindowMs });
        invalidAtMs.length = 0;
      }
    },
  };
}
