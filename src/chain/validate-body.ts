/**
 * The body stage: the transaction list must fit the block bounds, every transaction must decode for this chain and
 * carry valid signatures, and the list must hash to the header's merkle root. Checked after the header stages
 * (cheap before expensive: sizes, then decoding, then the merkle root, then signatures), before anything is
 * written. Sizes are computed before encoding so an oversized block never gets encoded.
 *
 * Signatures are verified here, once per block, through the `SignatureVerifier` port (the node plugs in the
 * libsecp256k1 Wasm verifier); acceptance later checks only nonces and balances (DESIGN.md §3).
 */
import type { Block } from '../codec/block.ts';
import { merkleRoot } from '../codec/merkle.ts';
import { encodeHeader } from '../codec/header.ts';
import { decodeTransaction, transactionSignatureChecks, type Transaction } from '../codec/transaction.ts';
import type { NetworkParams } from '../consensus/params.ts';
import { blake3 } from '../crypto/blake3.ts';
import type { SchnorrCheck, SignatureVerifier } from '../crypto/verifier.ts';
import { blockBytesMax, blockTxCountMax, txBytesMax } from '../limits.ts';
import { equalBytes } from '../util/bytes.ts';
import { BlockRuleError } from './errors.ts';
import type { BlockTransaction } from './state-port.ts';

const varintBytes = (n: number): number => (n < 0x80 ? 1 : n < 0x4000 ? 2 : n < 0x200000 ? 3 : n < 0x10000000 ? 4 : 5);

/** The encoded size of a block, without encoding it. */
export function blockEncodedBytes(block: Block): number {
  let bytes = encodeHeader(block.header).length + varintBytes(block.transactions.length);
  for (const tx of block.transactions) bytes += varintBytes(tx.length) + tx.length;
  return bytes;
}

function checkSizes(block: Block): void {
  if (block.transactions.length > blockTxCountMax) {
    throw new BlockRuleError('body.size.too-large', `${block.transactions.length} transactions, at most ${blockTxCountMax}`);
  }
  for (const tx of block.transactions) {
    if (tx.length > txBytesMax) throw new BlockRuleError('body.size.too-large', `a transaction is ${tx.length} bytes, at most ${txBytesMax}`);
  }
  const bytes = blockEncodedBytes(block);
  if (bytes > blockBytesMax) throw new BlockRuleError('body.size.too-large', `block is ${bytes} bytes, at most ${blockBytesMax}`);
}

function decodeAll(block: Block, params: NetworkParams): BlockTransaction[] {
  return block.transactions.map((bytes, i) => {
    let tx: Transaction;
    try {
      tx = decodeTransaction(bytes);
    } catch (cause) {
      throw new BlockRuleError('body.tx.invalid', `transaction ${i} does not decode: ${(cause as Error).message}`);
    }
    if (tx.chainId !== params.chainId) {
      throw new BlockRuleError('body.tx.invalid', `transaction ${i} is for chain ${tx.chainId}, this is chain ${params.chainId}`);
    }
    return { bytes, tx, hash: blake3(bytes) };
  });
}

/** Every signature of every transaction in one batch, so a fast verifier can amortise its setup. */
function checkSignatures(txs: readonly BlockTransaction[], verifier: SignatureVerifier): void {
  const checks: SchnorrCheck[] = [];
  const owner: number[] = [];
  txs.forEach(({ tx }, i) => {
    const needed = transactionSignatureChecks(tx);
    if (needed === undefined) throw new BlockRuleError('body.tx.invalid', `transaction ${i}: multisig script does not match its from address`);
    for (const check of needed) {
      checks.push(check);
      owner.push(i);
    }
  });
  const results = verifier.verifySchnorrBatch(checks);
  const bad = results.findIndex((ok) => !ok);
  if (bad >= 0) throw new BlockRuleError('body.tx.invalid', `transaction ${owner[bad]}: invalid signature`);
}

/** Validates the body and returns its transactions decoded, with their ids. */
export function validateBodyInIsolation(block: Block, params: NetworkParams, verifier: SignatureVerifier): BlockTransaction[] {
  checkSizes(block);
  const txs = decodeAll(block, params);
  if (!equalBytes(merkleRoot(txs.map((t) => t.hash)), block.header.txRoot)) {
    throw new BlockRuleError('body.tx-root.mismatch', 'transaction merkle root does not match the header');
  }
  checkSignatures(txs, verifier);
  return txs;
}
