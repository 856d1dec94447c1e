import { z } from 'zod';
import { defineMethod } from '../method.ts';
import { blockResult, recordResult } from '../result-schemas.ts';
import { renderBlock } from './get-block.ts';

export const getLatestBlock = defineMethod({
  name: 'get_latest_block',
  summary: 'The selected tip, with its transactions unless include_transactions is false.',
  params: z.strictObject({ include_transactions: z.boolean().default(true) }),
  scope: 'public',
  result: recordResult(blockResult),
  run(params, ctx) {
    const { chain } = ctx.services;
    return renderBlock(chain, chain.selectedTip(), params.include_transactions, ctx.services.ledger);
  },
});
