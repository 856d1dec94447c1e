import { z } from 'zod';
import { formatUnits } from '../../crypto/amount.ts';
import { toHash0x } from '../../util/bytes.ts';
import { ServiceUnavailableError } from '../errors.ts';
import { defineMethod, need } from '../method.ts';
import { addressResult, coinsResult, exactResult, hashResult } from '../result-schemas.ts';
import { addressSchema, limitSchema, offsetSchema, parseAddress } from '../schemas.ts';
import { secondsOf } from '../views.ts';

const rewardResult = z.object({
  block_hash: hashResult.describe('the block whose reward it is'),
  block_height: z.int().describe("the block's height (a DAG block's is its selected parent's + 1)"),
  blue: z.boolean().describe("false: a red block's reward, paid to the chain block that merged it"),
  amount: coinsResult,
  amount_exact: exactResult,
  subsidy_exact: exactResult,
  fees_exact: exactResult.describe('coin fees of the transactions it carried'),
  timestamp: z.int().describe('Unix seconds of the block'),
  accepting_block_hash: hashResult.nullable().describe('the chain block whose acceptance paid it; null: only the virtual has (in the balance, no chain block yet)'),
  accepting_height: z.int().nullable(),
  confirmations: z.int(),
});

/**
 * An address's block rewards, newest first (docs/api.md "get_reward_history"): with get_transaction_history, what
 * explains a miner's balance. A block's reward (subsidy + its coin fees) is credited when a chain block accepts it,
 * to its miner if blue and to the merging block's miner if red (docs/state.md "Acceptance"); the rows follow the
 * selected chain like the transaction history does.
 */
export const getRewardHistory = defineMethod({
  name: 'get_reward_history',
  summary: "An address's mining rewards (subsidy + fees per block), newest first, paged by limit/offset.",
  params: z.strictObject({ address: addressSchema, limit: limitSchema, offset: offsetSchema }),
  scope: 'public',
  result: z.object({ address: addressResult, total: z.int(), limit: z.int(), offset: z.int(), rewards: z.array(rewardResult) }),
  run(params, ctx) {
    const address = parseAddress(ctx, params.address);
    const ledger = need(ctx, 'ledger', 'get_reward_history');
    if (ledger.rewards === undefined) throw new ServiceUnavailableError('ledger (rewards)', 'get_reward_history');
    const page = ledger.rewards(address, { limit: params.limit, offset: params.offset });
    return {
      address: params.address,
      total: page.total,
      limit: params.limit,
      offset: params.offset,
      rewards: page.items.map((r) => {
        const amount = formatUnits(r.subsidyUnits + r.feesUnits);
        return {
          block_hash: toHash0x(r.blockHash),
          block_height: r.blockHeight,
          blue: r.blue,
          amount: Number(amount),
          amount_exact: amount,
          subsidy_exact: formatUnits(r.subsidyUnits),
          fees_exact: formatUnits(r.feesUnits),
          timestamp: secondsOf(r.timestampMs),
          accepting_block_hash: r.acceptingBlockHash === null ? null : toHash0x(r.acceptingBlockHash),
          accepting_height: r.acceptingHeight,
          confirmations: r.confirmations,
        };
      }),
    };
  },
});
