import { z } from 'zod';
import { toHash0x } from '../../util/bytes.ts';
import { networkStats } from '../chain-stats.ts';
import { defineMethod } from '../method.ts';
import { hashResult } from '../result-schemas.ts';
import { secondsOf } from '../views.ts';

/** A node summary in the spirit of Bitcoin Core's getblockchaininfo + getnetworkinfo and Kaspa's getInfo. */
export const getInfo = defineMethod({
  name: 'get_info',
  summary: 'Node summary: version, network, DAG size and tips, selected tip, sync state, peers, mempool size, uptime, consensus depths.',
  params: z.strictObject({}),
  scope: 'public',
  result: z.object({
    version: z.string(),
    network_id: z.string(),
    chain_id: z.int(),
    address_prefix: z.string(),
    block_height: z.int(),
    blocks: z.int(),
    tips: z.int(),
    orphans: z.int(),
    selected_tip: hashResult,
    blue_score: z.int(),
    daa_score: z.int(),
    difficulty: z.int(),
    synced: z.boolean(),
    peer_count: z.int(),
    mempool_size: z.int().nullable().describe('null without a mempool'),
    uptime_seconds: z.int(),
    time: z.int().describe('Unix seconds'),
    consensus: z.object({
      header_version: z.int(),
      finality_depth: z.int(),
      merge_depth: z.int(),
      pruning_depth: z.int(),
    }).describe("The network's header version and depth rules; regtest's are set per node (src/consensus/regtest-overrides.ts)"),
  }),
  run(_params, ctx) {
    const { chain, node, peers, mempool } = ctx.services;
    const tip = chain.selectedTip();
    const now = node.clock.nowMs();
    return {
      version: node.version,
      network_id: chain.params.name,
      chain_id: chain.params.chainId,
      address_prefix: chain.params.hrp,
      block_height: tip.height,
      blocks: chain.blockCount(),
      tips: chain.tips().length,
      orphans: chain.orphanCount(),
      selected_tip: toHash0x(tip.hash),
      blue_score: tip.header.blueScore,
      daa_score: tip.header.daaScore,
      difficulty: networkStats(chain).difficulty,
      synced: node.synced(),
      peer_count: peers?.peers().length ?? 0,
      mempool_size: mempool ? mempool.size() : null,
      uptime_seconds: Math.max(0, secondsOf(now - node.startedAtMs)),
      time: secondsOf(now),
      consensus: {
        header_version: chain.params.headerVersion,
        finality_depth: chain.params.finalityDepth,
        merge_depth: chain.params.mergeDepth,
        pruning_depth: chain.params.pruningDepth,
      },
    };
  },
});
