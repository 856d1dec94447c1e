/**
 * Sync progress in the APIs' snake_case, for /health and get_info (docs/p2p.md "Sync status"). The node object the
 * RPC layer holds carries `syncStatus()` next to `synced()` (server/node/start-node.ts); views that are handed a
 * node without it (tests with stub services) get `undefined` and omit the field.
 */
import type { SyncStatus } from '../../src/p2p/sync-progress.ts';

export interface SyncHealth {
  readonly state: SyncStatus['state'];
  readonly percent: number;
  readonly blocks_per_second: number;
  readonly eta_seconds: number | null;
  readonly current_blue_score: number;
  readonly target_blue_score: number;
  readonly headers_received: number;
  readonly blocks_applied: number;
  readonly sync_peer: string | null;
}

export function syncHealthFields(node: object): SyncHealth | undefined {
  const read = (node as { syncStatus?: () => SyncStatus }).syncStatus;
  if (typeof read !== 'function') return undefined;
  const s = read.call(node);
  return {
    state: s.state, percent: s.percent, blocks_per_second: s.blocksPerSecond, eta_seconds: s.etaSeconds, current_blue_score: s.currentBlueScore,
    target_blue_score: s.targetBlueScore, headers_received: s.headersReceived, blocks_applied: s.blocksApplied, sync_peer: s.syncPeer,
  };
}
