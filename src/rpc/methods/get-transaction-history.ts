import { z } from 'zod';
import { addressTouches } from '../../kinds/parties.ts';
import { equalBytes } from '../../util/bytes.ts';
import { defineMethod, need } from '../method.ts';
import type { TransactionRecord } from '../ports.ts';
import { historyResult } from '../result-schemas.ts';
import { addressSchema, limitSchema, offsetSchema, parseAddress } from '../schemas.ts';
import { transactionJson } from '../views.ts';
import type { ChainView } from '../ports.ts';

const directionNames = { out: 'outgoing', in: 'incoming', self: 'self' } as const;

function direction(record: TransactionRecord, address: Uint8Array): 'incoming' | 'outgoing' | 'self' {
  const touch = addressTouches(record.tx).find((t) => equalBytes(t.address, address));
  return directionNames[touch?.direction ?? 'in'];
}

function historyItemJson(chain: ChainView, record: TransactionRecord, address: Uint8Array): Record<string, unknown> {
  return { ...transactionJson(chain, record), type: direction(record, address) };
}

/**
 * Newest first, Bitcoin Core listtransactions style paging. With include_pending the address's mempool transactions
 * come first (they are the newest) and `offset` runs over pending-then-confirmed.
 */
export const getTransactionHistory = defineMethod({
  name: 'get_transaction_history',
  summary: "An address's transactions, newest first, paged by limit/offset; pending ones first when asked.",
  params: z.strictObject({
    address: addressSchema,
    limit: limitSchema,
    offset: offsetSchema,
    include_pending: z.boolean().default(false),
  }),
  scope: 'public',
  result: historyResult,
  run(params, ctx) {
    const address = parseAddress(ctx, params.address);
    const ledger = need(ctx, 'ledger', 'get_transaction_history');
    const pending = params.include_pending ? [...need(ctx, 'mempool', 'get_transaction_history').pending(address)] : [];
    const fromPending = pending.slice(params.offset, params.offset + params.limit);
    const ledgerOffset = Math.max(0, params.offset - pending.length);
    const page = ledger.history(address, { limit: params.limit - fromPending.length, offset: ledgerOffset });
    const records = params.limit - fromPending.length > 0 ? [...fromPending, ...page.items] : fromPending;
    return {
      address: params.address,
      total: page.total === undefined ? null : page.total + pending.length,
      limit: params.limit,
      offset: params.offset,
      transactions: records.map((r) => historyItemJson(ctx.services.chain, r, address)),
    };
  },
});
