/**
 * Checks a node's `get_transaction_proof` answer (docs/api.md) against a header this light client verified itself:
 * BLAKE3 of the transaction bytes must be the hash asked for, the block must be in the client's own verified DAG,
 * and the Merkle path (src/codec/merkle.ts) must fold that hash up to the header's txRoot. Only then is the
 * transaction read — from its bytes, with the node's codec, never from the node's JSON. What this proves is that a
 * block whose PoW the client checked carries the transaction (the SPV assumption: the network's full nodes
 * validated it); whether the DAG's merge order accepted it is state, which balance proofs show. Anything else
 * throws LightProofError.
 */
import { decodeTransaction, type AnyTransaction } from '../kinds/transaction-codec.ts';
import { merkleRootFromPath } from '../codec/merkle.ts';
import { blake3 } from '../crypto/blake3.ts';
import { equalBytes, fromHex, toHash0x } from '../util/bytes.ts';
import { LightProofError } from './errors.ts';
import type { LightChain } from './light-chain.ts';
import { proofHashBytes } from './verify-account.ts';

export interface VerifiedTransaction {
  readonly hash: string;
  readonly tx: AnyTransaction;
  /** The verified header whose txRoot the path reached. */
  readonly blockHash: string;
  readonly blockHeight: number;
}

interface TransactionProofAnswer {
  readonly hash: string;
  readonly block_hash: string;
  readonly transaction: string;
  readonly index: number;
  readonly leaf_count: number;
  readonly path: readonly string[];
}

export function verifyTransactionProof(chain: Pick<LightChain, 'get'>, expectedHash: string, answer: unknown): VerifiedTransaction {
  const a = answer as TransactionProofAnswer;
  const expected = proofHashBytes(expectedHash, 'the transaction hash asked for');
  if (typeof a?.transaction !== 'string' || !/^0x([0-9a-f]{2})+$/.test(a.transaction)) {
    throw new LightProofError('proof-invalid', 'transaction is not 0x-hex bytes');
  }
  const bytes = fromHex(a.transaction.slice(2));
  const hash = blake3(bytes);
  if (!equalBytes(hash, expected)) {
    throw new LightProofError('proof-invalid', `the bytes served hash to ${toHash0x(hash)}, not the ${expectedHash} asked for`);
  }
  const blockHash = proofHashBytes(a.block_hash, 'block_hash');
  const block = chain.get(toHash0x(blockHash).slice(2));
  if (!block) throw new LightProofError('header-unknown', `the transaction is placed in block ${toHash0x(blockHash)}, which this light node has not verified (yet)`);
  if (!Array.isArray(a.path)) throw new LightProofError('proof-invalid', 'path is not a list of hashes');
  let root: Uint8Array;
  try {
    root = merkleRootFromPath(hash, a.index, a.leaf_count, a.path.map((s, i) => proofHashBytes(s, `path[${i}]`)));
  } catch (cause) {
    if (cause instanceof LightProofError) throw cause;
    throw new LightProofError('proof-invalid', `the Merkle path is malformed: ${(cause as Error).message}`, cause);
  }
  if (!equalBytes(root, block.header.txRoot)) {
    throw new LightProofError('root-mismatch', `the Merkle path reaches ${toHash0x(root)}, not the verified header's tx root ${toHash0x(block.header.txRoot)}`);
  }
  let tx: AnyTransaction;
  try {
    tx = decodeTransaction(bytes);
  } catch (cause) {
    throw new LightProofError('proof-invalid', `the transaction bytes do not decode: ${(cause as Error).message}`, cause);
  }
  return { hash: expectedHash, tx, blockHash: toHash0x(block.hash), blockHeight: block.height };
}
