import { z } from 'zod';
import { defineMethod, need } from '../method.ts';
import { miningInfoResult, recordResult } from '../result-schemas.ts';

export const getMiningInfo = defineMethod({
  name: 'get_mining_info',
  summary: "This node's mining state (running, backends, threads, local and network hash rate, difficulty).",
  params: z.strictObject({}),
  scope: 'public',
  result: recordResult(miningInfoResult),
  run(_params, ctx) {
    return need(ctx, 'mining', 'get_mining_info').info();
  },
});
