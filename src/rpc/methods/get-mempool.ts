import { z } from 'zod';
import { encodeTransaction } from '../../kinds/transaction-codec.ts';
import { formatUnits } from '../../crypto/amount.ts';
import { kindOf } from '../../kinds/registry.ts';
import { defineMethod, need } from '../method.ts';
import { exactResult, recordResult, transactionResult } from '../result-schemas.ts';
import { limitSchema, offsetSchema } from '../schemas.ts';
import { transactionJson } from '../views.ts';

/** A pending transaction with its size and fee rate (coin fee units per byte of its encoding). */
const mempoolEntryResult = transactionResult.extend({
  size: z.int().describe('bytes of its encoding'),
  fee_rate: z.number().describe('fee in base units per byte'),
});

/**
 * Weft extension (docs/api.md "get_mempool"): the pending pool as an explorer lists it (mempool.space style),
 * highest fee rate first, paged by limit/offset; the totals cover the whole pool. Public: pending transactions are
 * broadcast to every peer anyway.
 */
export const getMempool = defineMethod({
  name: 'get_mempool',
  summary: 'Pending transactions, highest fee rate first, paged by limit/offset, with the whole pool’s count, bytes and fees.',
  params: z.strictObject({ limit: limitSchema, offset: offsetSchema }),
  scope: 'public',
  result: z.object({
    total: z.int().describe('pending transactions in the pool'),
    total_bytes: z.int(),
    total_fees: exactResult.describe('coins, exact decimal string'),
    limit: z.int(),
    offset: z.int(),
    transactions: z.array(recordResult(mempoolEntryResult)),
  }),
  run(params, ctx) {
    const pool = need(ctx, 'mempool', 'get_mempool');
    const entries = pool.pending().map((record) => {
      const size = encodeTransaction(record.tx).length;
      const fee = kindOf(record.tx).spend(record.tx).fee;
      return { record, size, fee, rate: Number(fee) / size };
    });
    entries.sort((a, b) => b.rate - a.rate || a.record.timestampMs - b.record.timestampMs);
    return {
      total: entries.length,
      total_bytes: entries.reduce((sum, e) => sum + e.size, 0),
      total_fees: formatUnits(entries.reduce((sum, e) => sum + e.fee, 0n)),
      limit: params.limit,
      offset: params.offset,
      transactions: entries.slice(params.offset, params.offset + params.limit).map((e) => ({
        ...transactionJson(ctx.services.chain, e.record),
        size: e.size,
        fee_rate: Math.round(e.rate * 1000) / 1000,
      })),
    };
  },
});
