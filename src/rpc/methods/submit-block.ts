import { z } from 'zod';
import { decodeBlock } from '../../codec/block.ts';
import { BlockRuleError } from '../../chain/errors.ts';
import { blockBytesMax } from '../../limits.ts';
import { MiningError } from '../../mining/errors.ts';
import { toHash0x, fromHex } from '../../util/bytes.ts';
import { defineMethod } from '../method.ts';
import { hashResult, stringOf } from '../result-schemas.ts';
import { hexSchema, parseHex } from '../schemas.ts';

/**
 * A solved block as its canonical encoding (0x-hex). Accepted, duplicate and orphan (parents unknown, waiting) are
 * results; a block that breaks a consensus rule is -40005 Mining error with the rule id, as Bitcoin Core's
 * submitblock returns the rejection reason. Public, like a block relayed by a peer: its proof of work is its authority
 * (docs/auth.md "Public work").
 */
export const submitBlock = defineMethod({
  name: 'submit_block',
  summary: 'Submit a solved block (canonical encoding as 0x-hex); returns accepted, duplicate or orphan.',
  params: z.strictObject({ block: hexSchema.max(2 + 2 * blockBytesMax) }),
  scope: 'public',
  result: z.object({ hash: hashResult, status: stringOf(['accepted', 'duplicate', 'orphan']), height: z.int().optional().describe('when accepted') }),
  async run(params, ctx) {
    const block = decodeBlock(parseHex(params.block));
    try {
      const result = await ctx.services.chain.addBlock(block);
      if (result.status === 'accepted') return { hash: toHash0x(result.block.hash), status: 'accepted', height: result.block.height };
      return { hash: toHash0x(fromHex(result.id)), status: result.status };
    } catch (error) {
      if (error instanceof BlockRuleError) {
        throw new MiningError(error.message, { details: { reason: 'block_rejected', rule: error.rule, stage: error.stage } });
      }
      throw error;
    }
  },
});
