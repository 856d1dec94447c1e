import { z } from 'zod';
import { defineMethod } from '../method.ts';

/** The seed's get_block_height: `{height}` of the selected tip. */
export const getBlockHeight = defineMethod({
  name: 'get_block_height',
  summary: 'Height of the selected tip.',
  params: z.strictObject({}),
  scope: 'public',
  result: z.object({ height: z.int() }),
  example: { params: {}, result: { height: 1234 } },
  run(_params, ctx) {
    return { height: ctx.services.chain.selectedTip().height };
  },
});
