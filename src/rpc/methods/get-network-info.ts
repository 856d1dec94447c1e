import { z } from 'zod';
import { formatHashRate, networkStats } from '../chain-stats.ts';
import { defineMethod } from '../method.ts';

/** The seed's Network info (JSON-RPC) object, every figure from chain data (chain-stats.ts). */
export const getNetworkInfo = defineMethod({
  name: 'get_network_info',
  summary: 'Network id, node version, height, difficulty, estimated hash rate, peers, GPU share and energy share.',
  params: z.strictObject({}),
  scope: 'public',
  result: z.object({
    network_id: z.string(),
    chain_id: z.int(),
    version: z.string(),
    block_height: z.int(),
    difficulty: z.int(),
    hash_rate: z.string().describe('estimated network rate with unit, e.g. "1.23 MH/s"'),
    hashes_per_second: z.number(),
    peer_count: z.int(),
    gpu_mining_ratio: z.number().describe('0..1'),
    energy_efficiency: z.number().describe('0..1'),
  }),
  example: {
    params: {},
    result: { network_id: 'devnet', chain_id: 1337, version: '0.1.0', block_height: 1234, difficulty: 65536, hash_rate: '131.07 kH/s', hashes_per_second: 131072, peer_count: 0, gpu_mining_ratio: 0, energy_efficiency: 0 },
  },
  run(_params, ctx) {
    const { chain, node, peers } = ctx.services;
    const stats = networkStats(chain);
    return {
      network_id: chain.params.name,
      chain_id: chain.params.chainId,
      version: node.version,
      block_height: stats.height,
      difficulty: stats.difficulty,
      hash_rate: formatHashRate(stats.hashesPerSecond),
      hashes_per_second: stats.hashesPerSecond,
      peer_count: peers?.peers().length ?? 0,
      gpu_mining_ratio: stats.gpuRatio,
      energy_efficiency: stats.energyRatio,
    };
  },
});
