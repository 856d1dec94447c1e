// Fixtures for chain tests: a devnet variant whose genesis sits at the pow limit (every other hash wins), and a
// block maker that derives every consensus field the way validation will, then lets a test break exactly one.
import { transactionsRoot, type Block } from '../../src/codec/block.ts';
import type { BlockHeader } from '../../src/codec/header.ts';
import type { IndexedBlock } from '../../src/chain/block-index.ts';
import type { Chain } from '../../src/chain/chain.ts';
import { headerCommitments, type HeaderCommitments } from '../../src/chain/header-commitments.ts';
import { devnetParams, type NetworkParams } from '../../src/consensus/params.ts';
import { compactToTarget, prePowHash, searchNonce, targetToCompact, workFromTarget } from '../../src/consensus/pow.ts';
import { compareBytes, fromHex } from '../../src/util/bytes.ts';

export function easyParams(overrides: Partial<NetworkParams> = {}): NetworkParams {
  const base = { ...devnetParams, ...overrides };
  const bits = targetToCompact(base.maxTarget);
  const genesis: BlockHeader = { ...base.genesis, bits, nonce: 0n };
  return { ...base, genesis: { ...genesis, nonce: grind(genesis) } };
}

export const testMiner = Uint8Array.from({ length: 33 }, (_, i) => (i === 0 ? 0 : i));

export function grind(header: BlockHeader): bigint {
  let target: bigint;
  try {
    target = compactToTarget(header.bits);
  } catch {
    target = (1n << 255n) - 1n;
  }
  const found = searchNonce(prePowHash(header), target, 0n, 10_000_000);
  if (found.nonce === null) throw new Error('no nonce found for fixture block');
  return found.nonce;
}

export interface MakeBlockOptions {
  /** Parent ids; default: every tip. */
  parents?: readonly string[];
  timestampMs?: number;
  transactions?: readonly Uint8Array[];
  /** Breaks a field after every field was derived; the nonce is ground afterwards unless `grind` is false. */
  mutate?: (header: BlockHeader) => BlockHeader;
  grind?: boolean;
  /** 33-byte miner address; default testMiner. */
  miner?: Uint8Array;
}

/** A version 2 block's level parents and pruning point, as validation recomputes them (header-commitments.ts). */
function commitmentsFor(chain: Chain, parentIds: readonly string[], sp: IndexedBlock): HeaderCommitments {
  const dag = { params: chain.params, genesis: chain.genesis, get: (id: string) => chain.get(id), engine: chain.engine };
  try {
    return headerCommitments(dag, parentIds, sp);
  } catch {
    // Parents a test chose to break a rule with (unknown ones): the selected parent's alone.
    return headerCommitments(dag, [sp.id], sp);
  }
}

export function makeBlock(chain: Chain, options: MakeBlockOptions = {}): Block {
  const parentIds = [...(options.parents ?? chain.tips().map((t) => t.id))];
  // Parents that break a DAG rule (redundant, mergeset too large) still get a header: derive it from the first.
  const compute = (work: bigint) => {
    try {
      return chain.engine.computeBlock(parentIds, work);
    } catch {
      return chain.engine.computeBlock(parentIds.slice(0, 1), work);
    }
  };
  const provisional = compute(1n);
  const sp = chain.get(provisional.selectedParent!)!;
  const rules = chain.childRules(sp);
  const data = compute(workFromTarget(compactToTarget(rules.bits)));
  const transactions = options.transactions ?? [];
  const miner = options.miner ?? testMiner;
  // The state root the chain will recompute (the mergeset accepted onto the selected parent's state).
  let stateRoot: Uint8Array;
  try {
    stateRoot = chain.childState(parentIds, miner).stateRoot;
  } catch {
    stateRoot = chain.params.genesis.stateRoot;
  }
  let header: BlockHeader = {
    version: chain.params.headerVersion,
    parents: parentIds.map((id) => fromHex(id)).sort(compareBytes),
    txRoot: transactionsRoot({ transactions }),
    stateRoot,
    timestampMs: options.timestampMs ?? Math.max(rules.minTimestampMs, sp.header.timestampMs + 1_000),
    bits: rules.bits,
    daaScore: sp.header.daaScore + data.mergesetBlues.length + data.mergesetReds.length,
    blueScore: data.blueScore,
    blueWork: data.blueWork,
    miner,
    gpuMining: false,
    nonce: 0n,
    ...(chain.params.headerVersion === 2 ? commitmentsFor(chain, parentIds, sp) : {}),
  };
  if (options.mutate) header = options.mutate(header);
  if (options.grind !== false) header = { ...header, nonce: grind(header) };
  return { header, transactions };
}

/**
 * A block of `transactions` on the chain's tips whose header claims any DAA score: for a rule that activates at a
 * DAA score, checked on the body in isolation (the header's other fields are the template's, its txRoot the body's).
 */
export function blockAtDaaScore(chain: Chain, transactions: readonly Uint8Array[]): (daaScore: number, body?: readonly Uint8Array[]) => Block {
  const template = makeBlock(chain, { transactions: [...transactions] });
  return (daaScore, body = transactions) => ({ header: { ...template.header, daaScore, txRoot: transactionsRoot({ transactions: body }) }, transactions: [...body] });
}

/** A witness verifier that passes every check and counts its calls: whether a body got as far as its proofs. */
export function countingVerifier(): { readonly name: string; verifyWitnesses(checks: readonly unknown[]): boolean[]; readonly calls: number } {
  let calls = 0;
  return {
    name: 'counting',
    verifyWitnesses: (checks) => ((calls += 1), checks.map(() => true)),
    get calls() {
      return calls;
    },
  };
}

