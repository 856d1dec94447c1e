import { z } from 'zod';
import { defineMethod, need } from '../method.ts';
import { miningStatsResult, recordResult } from '../result-schemas.ts';

export const getMiningStats = defineMethod({
  name: 'get_mining_stats',
  summary: 'Mining statistics over a period (1h, 24h, 7d, 30d): blocks, rewards, hash rates, GPU share.',
  params: z.strictObject({ period: z.enum(['1h', '24h', '7d', '30d']).default('24h') }),
  scope: 'public',
  result: recordResult(miningStatsResult),
  run(params, ctx) {
    return need(ctx, 'mining', 'get_mining_stats').stats(params.period);
  },
});
