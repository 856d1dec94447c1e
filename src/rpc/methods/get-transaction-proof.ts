import { z } from 'zod';
import { merklePath } from '../../codec/merkle.ts';
import { blake3 } from '../../crypto/blake3.ts';
import { equalBytes, toHash0x, toHex } from '../../util/bytes.ts';
import { assertNotPruned } from '../pruned.ts';
import { BlockNotFoundError, TransactionNotFoundError, TransactionPendingError } from '../errors.ts';
import { defineMethod, need } from '../method.ts';
import { hashResult, transactionStatusResult } from '../result-schemas.ts';
import { hashSchema, parseHex } from '../schemas.ts';

/**
 * A transaction's canonical bytes and the Merkle audit path from it to the txRoot of the block that carries it
 * (src/codec/merkle.ts), so a light client that verified that block's header can check the transaction is in it
 * and read it from the bytes itself, without the rest of the block (Bitcoin's merkleblock role).
 */
export const getTransactionProof = defineMethod({
  name: 'get_transaction_proof',
  summary: 'A transaction in a block: its bytes and the Merkle path to the header\'s tx root, for light clients.',
  params: z.strictObject({ hash: hashSchema }),
  scope: 'public',
  result: z.object({
    hash: hashResult,
    block_hash: hashResult,
    block_height: z.int().nullable(),
    transaction: z.string().describe('0x-hex canonical transaction bytes; BLAKE3 of them is `hash`'),
    index: z.int(),
    leaf_count: z.int(),
    path: z.array(hashResult).describe('Merkle audit path, leaf to root'),
    status: transactionStatusResult,
  }),
  run(params, ctx) {
    const hash = parseHex(params.hash);
    const ledger = need(ctx, 'ledger', 'get_transaction_proof');
    const record = ledger.getTransaction(hash);
    if (record === undefined) {
      if (ctx.services.mempool?.get(hash)) throw new TransactionPendingError(toHash0x(hash));
      throw new TransactionNotFoundError(toHash0x(hash));
    }
    if (record.blockHash === undefined) throw new TransactionPendingError(toHash0x(hash));
    const { chain } = ctx.services;
    const id = toHex(record.blockHash);
    const block = chain.getBlock(id);
    if (block === undefined) {
      assertNotPruned(chain, id, `the body of block ${toHash0x(record.blockHash)}`);
      throw new BlockNotFoundError(`block ${toHash0x(record.blockHash)} has no stored body`);
    }
    const leaves = block.transactions.map((bytes) => blake3(bytes));
    const index = leaves.findIndex((leaf) => equalBytes(leaf, hash));
    if (index < 0) throw new TransactionNotFoundError(toHash0x(hash));
    return {
      hash: toHash0x(hash),
      block_hash: toHash0x(record.blockHash),
      block_height: chain.get(id)?.height ?? null,
      transaction: `0x${toHex(block.transactions[index]!)}`,
      index,
      leaf_count: leaves.length,
      path: merklePath(leaves, index).map(toHash0x),
      status: record.status,
    };
  },
});
