import { z } from 'zod';
import { formatHashRate, networkStats } from '../chain-stats.ts';
import { defineMethod } from '../method.ts';

/** The seed's Network info (JSON-RPC) object, every figure from chain data (chain-stats.ts). */
export const getNetworkInfo = defineMethod({
  name: 'get_network_info',
  summary: 'Network id, node version, height, difficulty, estimated hash rate, peers, GPU share and energy share.',
  params: z.strictObject({}),
  scope: 'public',
  result: {
    type: 'object',
    required: ['network_id', 'version', 'block_height', 'difficulty', 'hash_rate', 'peer_count', 'gpu_mining_ratio', 'energy_efficiency'],
    properties: {
      network_id: { type: 'string' },
      chain_id: { type: 'integer' },
      version: { type: 'string' },
      block_height: { type: 'integer' },
      difficulty: { type: 'integer' },
      hash_rate: { type: 'string' },
      hashes_per_second: { type: 'number' },
      peer_count: { type: 'integer' },
      gpu_mining_ratio: { type: 'number' },
      energy_efficiency: { type: 'number' },
    },
  },
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
