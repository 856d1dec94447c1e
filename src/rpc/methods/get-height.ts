import { z } from 'zod';
import { toHash0x } from '../../util/bytes.ts';
import { defineMethod } from '../method.ts';
import { hashResult } from '../result-schemas.ts';

/** The selected tip's position: height plus the DAG's own measures (Kaspa users count blue and DAA scores). */
export const getHeight = defineMethod({
  name: 'get_height',
  summary: 'Selected-chain height with the tip hash, blue score, DAA score and the number of blocks in the DAG.',
  params: z.strictObject({}),
  scope: 'public',
  result: z.object({ height: z.int(), hash: hashResult, blue_score: z.int(), daa_score: z.int(), blocks: z.int() }),
  run(_params, ctx) {
    const { chain } = ctx.services;
    const tip = chain.selectedTip();
    return { height: tip.height, hash: toHash0x(tip.hash), blue_score: tip.header.blueScore, daa_score: tip.header.daaScore, blocks: chain.blockCount() };
  },
});
