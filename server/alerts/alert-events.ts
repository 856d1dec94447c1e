/**
 * The alert event port (docs/alerts.md "Events"): what the node reports, and which subscription category each belongs
 * to. The seed names the categories (`network_issues`, `upgrades`, `security`); the events are raised by the node
 * monitor (node-monitor.ts) from the chain, the peer set and the p2p layer's bans and invalid blocks.
 */

export const alertCategories = ['network_issues', 'upgrades', 'security'] as const;
export type AlertCategory = (typeof alertCategories)[number];

export type AlertEvent =
  | { readonly kind: 'no_peers'; readonly sinceMs: number }
  | { readonly kind: 'chain_stalled'; readonly lastBlockAtMs: number; readonly height: number }
  | { readonly kind: 'newer_version'; readonly version: string; readonly ours: string }
  | { readonly kind: 'peer_banned'; readonly peer: string; readonly reason: string }
  | { readonly kind: 'invalid_block_flood'; readonly count: number; readonly windowMs: number }
  | { readonly kind: 'finality_conflict'; readonly block: string; readonly finalityPoint: string };

export function categoryOf(event: AlertEvent): AlertCategory {
  switch (event.kind) {
    case 'no_peers':
    case 'chain_stalled':
      return 'network_issues';
    case 'newer_version':
      return 'upgrades';
    case 'peer_banned':
    case 'invalid_block_flood':
    case 'finality_conflict':
      return 'security';
  }
}

/** Alerts with the same key inside the cooldown are mailed once. */
export function dedupeKey(event: AlertEvent): string {
  if (event.kind === 'newer_version') return `newer_version:${event.version}`;
  return event.kind === 'finality_conflict' ? `finality_conflict:${event.finalityPoint}` : event.kind;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** Subject line and plain-text body of the mail. */
export function describeAlert(event: AlertEvent): { title: string; body: string } {
  switch (event.kind) {
    case 'no_peers':
      return { title: 'Node has no peers', body: `The node has had no peer connections since ${iso(event.sinceMs)}. Check its network, firewall and addnode settings.` };
    case 'chain_stalled':
      return { title: 'Chain stalled', body: `No new block since ${iso(event.lastBlockAtMs)} (height ${event.height}). Blocks are expected every second.` };
    case 'newer_version':
      return { title: `Peers run a newer version (${event.version})`, body: `Peers announce version ${event.version}; this node runs ${event.ours}. Consider upgrading.` };
    case 'peer_banned':
      return { title: 'A peer was banned', body: `Peer ${event.peer} was banned: ${event.reason}.` };
    case 'finality_conflict':
      return {
        title: 'Finality conflict: a heavier chain was refused',
        body: `Block ${event.block} would have moved the selected chain below the finality point ${event.finalityPoint}. The node refused it and stays on its chain; a network split this deep needs an operator (docs/consensus.md "Finality and merge depth").`,
      };
    case 'invalid_block_flood':
      return { title: 'Flood of invalid blocks', body: `${event.count} invalid blocks arrived within ${event.windowMs / 60_000} minutes.` };
  }
}
