import { z } from 'zod';
import { defineMethod, need } from '../method.ts';
import { recordResult, stopMiningResult } from '../result-schemas.ts';

export const stopMining = defineMethod({
  name: 'stop_mining',
  summary: "Stop this node's miners; returns the final counters of the session.",
  params: z.strictObject({}),
  scope: 'mine_blocks',
  result: recordResult(stopMiningResult),
  run(_params, ctx) {
    return need(ctx, 'mining', 'stop_mining').stop();
  },
});
