/**
 * Bounds of the mining control, statistics and events (docs/mining.md). Kept beside the code they bound, named with
 * their unit last like src/limits.ts.
 */

/** Statistics aggregate blocks per bucket of this width: one minute. */
export const miningStatsBucketMs = 60_000;
/** The longest period get_mining_stats answers (30d): buckets older than this are dropped. */
export const miningStatsHorizonMs = 30 * 24 * 3_600_000;
/** Points in a hash-rate series, whatever the period (1h → 1 min each, 30d → 12 h each). */
export const miningStatsSeriesPointsMax = 60;
/**
 * Backfill at start walks the selected chain down to horizon − this slack: a merged block's timestamp may lie
 * before its merging chain block's by up to the timestamp rules' leeway (past median time vs the future bound).
 */
export const miningStatsBackfillSlackMs = 10 * 60_000;
/** Blocks the start-up backfill reads at most (30 days at one block a second is 2.59 M; reds add a little). */
export const miningStatsBackfillBlocksMax = 4_000_000;

/** Local hash rate: the measured figure is the mean over this trailing span. */
export const hashRateWindowMs = 10_000;
/** Samples a meter keeps for its trailing window (one a second is taken; a few spare). */
export const hashRateSamplesMax = 64;
/** How often the control samples its backends' hash counters. */
export const hashRateSampleIntervalMs = 1_000;

/** Network hash rate: estimated over at most this many selected-chain blocks back from the tip. */
export const networkHashRateWindowBlocks = 120;

/** Hashes of blocks this node mined, kept to match them when the chain commits them (oldest dropped first). */
export const foundBlocksTrackedMax = 10_000;
/** Found blocks waiting for their reward to become known (the ledger pays a block when a chain block merges it). */
export const pendingRewardsMax = 1_000;
/** A found block whose reward is still unknown after this many later committed blocks stops being asked about. */
export const pendingRewardBlocksMax = 1_000;

/** Mining event listeners on one control (the RPC hub holds one; tests a few). */
export const miningEventListenersMax = 64;
