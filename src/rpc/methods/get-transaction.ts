import { z } from 'zod';
import { toHash0x } from '../../util/bytes.ts';
import { TransactionNotFoundError } from '../errors.ts';
import { defineMethod, need, type RpcCallContext } from '../method.ts';
import type { TransactionRecord } from '../ports.ts';
import { recordResult, transactionResult } from '../result-schemas.ts';
import { hashSchema, parseHex } from '../schemas.ts';
import { transactionJson } from '../views.ts';

/** The ledger's record, else the mempool's pending one; -32000 when neither knows the hash. */
function lookupTransaction(ctx: RpcCallContext, hash: Uint8Array, method: string): TransactionRecord {
  const ledger = need(ctx, 'ledger', method);
  const record = ledger.getTransaction(hash) ?? ctx.services.mempool?.get(hash);
  if (record === undefined) throw new TransactionNotFoundError(toHash0x(hash));
  return record;
}

export const getTransaction = defineMethod({
  name: 'get_transaction',
  summary: 'A transaction by hash: pending (mempool) or accepted by the chain, with confirmations and status.',
  params: z.strictObject({ hash: hashSchema }),
  scope: 'public',
  result: recordResult(transactionResult),
  run(params, ctx) {
    return transactionJson(ctx.services.chain, lookupTransaction(ctx, parseHex(params.hash), 'get_transaction'));
  },
});
