import { z } from 'zod';
import { defineMethod, need } from '../method.ts';
import { miningInfoResult, recordResult } from '../result-schemas.ts';
import { addressSchema, parseAddress } from '../schemas.ts';

/** The seed's reference-client defaults: threads 4, gpu_mining true. */
export const startMining = defineMethod({
  name: 'start_mining',
  summary: 'Start (or reconfigure) mining to miner_address with CPU threads and, when available, GPU devices.',
  params: z.strictObject({
    miner_address: addressSchema.optional(),
    threads: z.number().int().min(1).max(256).default(4),
    gpu_mining: z.boolean().default(true),
    gpu_devices: z.array(z.number().int().nonnegative().max(64)).max(64).default([]),
  }),
  scope: 'mine_blocks',
  result: recordResult(miningInfoResult),
  run(params, ctx) {
    const mining = need(ctx, 'mining', 'start_mining');
    if (params.miner_address !== undefined) parseAddress(ctx, params.miner_address);
    return mining.start({
      ...(params.miner_address === undefined ? {} : { minerAddress: params.miner_address }),
      threads: params.threads,
      gpuMining: params.gpu_mining,
      gpuDevices: params.gpu_devices,
    });
  },
});
