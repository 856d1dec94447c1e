import { z } from 'zod';
import { decodeTransaction } from '../../kinds/transaction-codec.ts';
import { PrivacyDecodeError } from '../../kinds/confidential/codec.ts';
import { txBytesMax } from '../../limits.ts';
import { stemHopsMax } from '../../p2p/dandelion.ts';
import { toHash0x } from '../../util/bytes.ts';
import { TransactionRejectedError } from '../errors.ts';
import { defineMethod, need } from '../method.ts';
import { hashResult, transactionStatusResult } from '../result-schemas.ts';
import { hexSchema, parseHex } from '../schemas.ts';

/** Decodes; a point that breaks the strict privacy rules answers -40006 privacy_error (issue 17), not -32602. */
function decodeRaw(bytes: Uint8Array) {
  try {
    return decodeTransaction(bytes);
  } catch (error) {
    if (error instanceof PrivacyDecodeError) throw error.privacy;
    throw error;
  }
}

/**
 * A transaction signed elsewhere (a light wallet) in its canonical bytes, as hex: Bitcoin's sendrawtransaction.
 * `mixnet_hops` is its Dandelion++ stem (docs/p2p.md), as for create_confidential_transaction: a wallet that signs
 * for itself chooses its stem too.
 */
export const sendRawTransaction = defineMethod({
  name: 'send_raw_transaction',
  summary: 'Submit a transaction signed elsewhere (canonical encoding as 0x-hex) to the mempool.',
  params: z.strictObject({ transaction: hexSchema.max(2 + 2 * txBytesMax), mixnet_hops: z.int().min(0).max(stemHopsMax).optional() }),
  scope: 'public',
  result: z.object({ hash: hashResult, status: transactionStatusResult }),
  async run(params, ctx) {
    const mempool = need(ctx, 'mempool', 'send_raw_transaction');
    const tx = decodeRaw(parseHex(params.transaction));
    const chainId = ctx.services.chain.params.chainId;
    if (tx.chainId !== chainId) {
      throw new TransactionRejectedError(`chain_id is ${tx.chainId}, this network's is ${chainId}`, { rule: 'chain_id' });
    }
    const submitted = await mempool.submit(tx, params.mixnet_hops === undefined ? undefined : { mixnetHops: params.mixnet_hops });
    return { hash: toHash0x(submitted.hash), status: submitted.status };
  },
});
