/**
 * The body stage: the transaction list must fit the block bounds, every transaction must decode for this chain,
 * and the list must hash to the header's merkle root. Checked after the header stages (cheap before expensive),
 * before anything is written. Sizes are computed before encoding so an oversized block never gets encoded.
 */
import { transactionsRoot, type Block } from '../codec/block.ts';
import { encodeHeader } from '../codec/header.ts';
import { decodeTransaction } from '../codec/transaction.ts';
import type { NetworkParams } from '../consensus/params.ts';
import { blockBytesMax, blockTxCountMax, txBytesMax } from '../limits.ts';
import { equalBytes } from '../util/bytes.ts';
import { BlockRuleError } from './errors.ts';

const varintBytes = (n: number): number => (n < 0x80 ? 1 : n < 0x4000 ? 2 : n < 0x200000 ? 3 : n < 0x10000000 ? 4 : 5);

/** The encoded size of a block, without encoding it. */
export function blockEncodedBytes(block: Block): number {
  let bytes = encodeHeader(block.header).length + varintBytes(block.transactions.length);
  for (const tx of block.transactions) bytes += varintBytes(tx.length) + tx.length;
  return bytes;
}

export function validateBodyInIsolation(block: Block, params: NetworkParams): void {
  if (block.transactions.length > blockTxCountMax) {
    throw new BlockRuleError('body.size.too-large', `${block.transactions.length} transactions, at most ${blockTxCountMax}`);
  }
  for (const tx of block.transactions) {
    if (tx.length > txBytesMax) throw new BlockRuleError('body.size.too-large', `a transaction is ${tx.length} bytes, at most ${txBytesMax}`);
  }
  const bytes = blockEncodedBytes(block);
  if (bytes > blockBytesMax) throw new BlockRuleError('body.size.too-large', `block is ${bytes} bytes, at most ${blockBytesMax}`);
  block.transactions.forEach((bytes, i) => {
    let chainId: number;
    try {
      chainId = decodeTransaction(bytes).chainId;
    } catch (cause) {
      throw new BlockRuleError('body.tx.invalid', `transaction ${i} does not decode: ${(cause as Error).message}`);
    }
    if (chainId !== params.chainId) {
      throw new BlockRuleError('body.tx.invalid', `transaction ${i} is for chain ${chainId}, this is chain ${params.chainId}`);
    }
  });
  if (!equalBytes(transactionsRoot(block), block.header.txRoot)) {
    throw new BlockRuleError('body.tx-root.mismatch', 'transaction merkle root does not match the header');
  }
}
