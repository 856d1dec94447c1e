/**
 * The body stage in isolation: the transaction list must fit the block bounds, every transaction must decode (its
 * kind registered, src/kinds/) for this chain, the block's mass must fit the budget, the list must hash to the
 * header's merkle root, and every proof the kinds ask for must verify. Checked after the header stages (cheap before
 * expensive: sizes, decoding, mass, the merkle root, then proofs), before anything is written. Sizes are computed
 * before encoding so an oversized block never gets encoded.
 *
 * Proofs are verified here, once per block, in one batch through the witness-check port (the node plugs in the
 * libsecp256k1 Wasm verifier). Rules that depend on state (nonces, balances, later session keys or key images) are
 * the body-in-context stage's (src/state/body-in-context.ts): breaking them makes a transaction "not accepted",
 * never the block invalid.
 */
import { blockEncodedBytes, type Block } from '../codec/block.ts';
import { merkleRoot } from '../codec/merkle.ts';
import { decodeTransaction, type AnyTransaction } from '../kinds/transaction-codec.ts';
import type { NetworkParams } from '../consensus/params.ts';
import { blake3 } from '../crypto/blake3.ts';
import type { WitnessCheck, WitnessVerifier } from '../crypto/witness-check.ts';
import { kindOf } from '../kinds/registry.ts';
import { massOf } from '../kinds/mass.ts';
import type { MassRules } from '../kinds/kind.ts';
import { massRulesAt } from '../consensus/activation.ts';
import { signingHashOfBody } from '../kinds/signing.ts';
import { blockBytesMax, blockMassMax, blockTxCountMax, txBytesMax } from '../limits.ts';
import { equalBytes } from '../util/bytes.ts';
import { BlockRuleError } from './errors.ts';
import type { BlockTransaction } from './state-port.ts';


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
    let tx: AnyTransaction;
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

/** The block's mass: every transaction's, as its kind weighs it under the block's mass rules (src/kinds/mass.ts). */
function blockMass(txs: readonly BlockTransaction[], rules: MassRules): number {
  let mass = 0;
  for (const { tx, bytes } of txs) mass += massOf(kindOf(tx).mass(tx, bytes.length, rules), rules);
  return mass;
}

function checkMass(txs: readonly BlockTransaction[], rules: MassRules): void {
  const mass = blockMass(txs, rules);
  if (mass > blockMassMax) throw new BlockRuleError('body.mass.too-large', `block mass is ${mass}, at most ${blockMassMax}`);
}

/** Every proof check the block's transactions ask for, with the index of the transaction that owes each. */
function proofChecksOf(txs: readonly BlockTransaction[]): { checks: WitnessCheck[]; owner: number[] } {
  const checks: WitnessCheck[] = [];
  const owner: number[] = [];
  txs.forEach(({ tx, bytes }, i) => {
    const kind = kindOf(tx);
    const needed = kind.witnessChecks(tx, signingHashOfBody(bytes.subarray(0, kind.bodyBytes(tx))));
    if (needed === undefined) throw new BlockRuleError('body.tx.invalid', `transaction ${i}: multisig script does not match its from address`);
    for (const check of needed) {
      checks.push(check);
      owner.push(i);
    }
  });
  return { checks, owner };
}

/** Every proof of every transaction in one batch, so a fast verifier can amortise its setup. */
function checkWitnesses(shaped: ShapedBody, verifier: WitnessVerifier): void {
  const { checks, owner } = shaped.proofs;
  const results = checks.length === 0 ? [] : verifier.verifyWitnesses(checks);
  const bad = results.findIndex((ok) => !ok);
  if (bad >= 0) throw new BlockRuleError('body.tx.invalid', `transaction ${owner[bad]}: invalid signature`);
}

/** A body whose checks short of proofs passed: its transactions decoded, and the proofs they ask for. */
interface ShapedBody {
  readonly txs: BlockTransaction[];
  readonly proofs: { readonly checks: WitnessCheck[]; readonly owner: number[] };
}

/**
 * Bodies already shaped, by block object: the node's preverify hook (preverify-body.ts) shapes a block to send its
 * proofs to the worker pool, then the stages shape the same object again; this keeps that to one decode and one
 * signing hash per transaction. Keyed by identity (a Block is never mutated once received) and weakly, so it holds
 * nothing past the block's own lifetime; only bodies that passed are kept (a refusal is recomputed, and throws again).
 */
const shapedBodies = new WeakMap<Block, ShapedBody>();

function shapeBody(block: Block, params: NetworkParams): ShapedBody {
  const known = shapedBodies.get(block);
  if (known !== undefined && known.txs.length === block.transactions.length) return known;
  checkSizes(block);
  const txs = decodeAll(block, params);
  checkMass(txs, massRulesAt(params, block.header.daaScore));
  if (!equalBytes(merkleRoot(txs.map((t) => t.hash)), block.header.txRoot)) {
    throw new BlockRuleError('body.tx-root.mismatch', 'transaction merkle root does not match the header');
  }
  const shaped = { txs, proofs: proofChecksOf(txs) };
  shapedBodies.set(block, shaped);
  return shaped;
}

/** The proofs a body that passed its shape checks asks for (throws the shape's rule error otherwise). */
export function bodyProofChecks(block: Block, params: NetworkParams): WitnessCheck[] {
  return shapeBody(block, params).proofs.checks;
}

/** Validates the body and returns its transactions decoded, with their ids. */
export function validateBodyInIsolation(block: Block, params: NetworkParams, verifier: WitnessVerifier): BlockTransaction[] {
  const shaped = shapeBody(block, params);
  checkWitnesses(shaped, verifier);
  return shaped.txs;
}
