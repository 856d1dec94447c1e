/**
 * Initial-sync progress for logs, /health and get_info: percent, blocks per second and ETA. The target is the best
 * blue score a peer announced; blue score counts the blue blocks in a block's past, so on a DAG of width w the
 * block count is about w × blue score and the ETA (remaining blue score / blue-score rate) stays honest for any w.
 */
import type { Clock } from '../util/clock.ts';
import { p2pSyncRateWindowMs } from './limits.ts';

type SyncState = 'idle' | 'syncing' | 'synced';

export interface SyncStatus {
  readonly state: SyncState;
  /** True when no sync is running and no connected peer is known to be ahead. */
  readonly synced: boolean;
  /** 0..100, one decimal. */
  readonly percent: number;
  readonly blocksPerSecond: number;
  /** null when unknown (no rate yet) or not syncing. */
  readonly etaSeconds: number | null;
  readonly currentBlueScore: number;
  readonly targetBlueScore: number;
  readonly headersReceived: number;
  readonly blocksApplied: number;
  /** NodeID (hex) of the peer headers come from, while syncing. */
  readonly syncPeer: string | null;
}

export interface SyncProgress {
  begin(startBlueScore: number, targetBlueScore: number): void;
  raiseTarget(targetBlueScore: number): void;
  headers(count: number): void;
  applied(currentBlueScore: number): void;
  finish(): void;
  status(currentBlueScore: number, syncPeer: string | null): SyncStatus;
}

interface Sample {
  readonly atMs: number;
  readonly blocks: number;
  readonly blueScore: number;
}

export function createSyncProgress(clock: Clock): SyncProgress {
  let state: SyncState = 'idle';
  let start = 0;
  let target = 0;
  let headersReceived = 0;
  let blocksApplied = 0;
  let samples: Sample[] = [];

  const sample = (blueScore: number): void => {
    const now = clock.nowMs();
    samples.push({ atMs: now, blocks: blocksApplied, blueScore });
    while (samples.length > 2 && samples[0]!.atMs < now - p2pSyncRateWindowMs) samples.shift();
  };

  return {
    begin(startBlueScore, targetBlueScore) {
      state = 'syncing';
      start = startBlueScore;
      target = Math.max(targetBlueScore, startBlueScore);
      headersReceived = 0;
      blocksApplied = 0;
      samples = [];
      sample(startBlueScore);
    },
    raiseTarget(targetBlueScore) {
      target = Math.max(target, targetBlueScore);
    },
    headers(count) {
      headersReceived += count;
    },
    applied(currentBlueScore) {
      blocksApplied++;
      // One sample per 64 blocks keeps this O(1) amortised on the hot path.
      if (blocksApplied % 64 === 0) sample(currentBlueScore);
    },
    finish() {
      state = 'synced';
    },
    status(current, syncPeer) {
      const syncing = state === 'syncing';
      const span = target - start;
      const percent = !syncing ? (state === 'synced' || target <= current ? 100 : 0) : span <= 0 ? 100 : Math.min(100, ((current - start) / span) * 100);
      const first = samples[0];
      const last = samples.at(-1);
      const seconds = first && last ? (last.atMs - first.atMs) / 1000 : 0;
      const blocksPerSecond = seconds > 0 ? (last!.blocks - first!.blocks) / seconds : 0;
      const blueRate = seconds > 0 ? (last!.blueScore - first!.blueScore) / seconds : 0;
      const etaSeconds = syncing && blueRate > 0 ? Math.max(0, Math.round((target - current) / blueRate)) : null;
      return {
        state,
        synced: !syncing,
        percent: Math.round(percent * 10) / 10,
        blocksPerSecond: Math.round(blocksPerSecond * 10) / 10,
        etaSeconds,
        currentBlueScore: current,
        targetBlueScore: Math.max(target, current),
        headersReceived,
        blocksApplied,
        syncPeer: syncing ? syncPeer : null,
      };
    },
  };
}
