/**
 * The seed's "Network and mining statistics" object (explorer style), served at /api/v1/stats and pushed on the
 * `network_stats` topic with each new selected tip. Hash-rate split (decision, docs/api.md "Statistics"):
 * `traditional_hashrate` is the CPU-found share of the estimated network rate, `mining_hashrate` the GPU-found share,
 * `mining_percentage` the GPU share in percent — all from the blocks' `gpu_mining` flags over the stats window of chain blocks.
 */
import { formatHashRate, networkStats } from './chain-stats.ts';
import type { RpcServices } from './ports.ts';
import { secondsOf } from './views.ts';

export function explorerStats(services: RpcServices): Record<string, unknown> {
  const stats = networkStats(services.chain);
  const counters = services.ledger?.counters();
  return {
    network: {
      block_height: stats.height,
      block_time_avg: `${stats.blockTimeAvgSeconds.toFixed(2)}s`,
      hashrate: formatHashRate(stats.hashesPerSecond),
      difficulty: stats.difficulty,
      // Without the ledger's index these count the stats window's blocks only (docs/api.md says so).
      active_addresses: counters?.activeAddresses ?? stats.windowAddresses,
      total_transactions: counters?.totalTransactions ?? stats.windowTransactions,
    },
    mining: {
      traditional_hashrate: formatHashRate(stats.cpuHashesPerSecond),
      mining_hashrate: formatHashRate(stats.gpuHashesPerSecond),
      mining_percentage: Math.round(stats.gpuRatio * 10_000) / 100,
      active_miners: stats.activeMiners,
    },
    window_blocks: stats.windowBlocks,
    counts_from: { total_transactions: counters ? 'ledger' : 'window', active_addresses: counters?.activeAddresses === undefined ? 'window' : 'ledger' },
    updated_at: secondsOf(stats.tip.header.timestampMs),
  };
}
