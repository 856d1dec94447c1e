/**
 * Block templates: the header a miner grinds on. Parents are the virtual's (the best tips, selected tip first, at
 * most maxParents, dropping the weakest while the mergeset would exceed its limit); every derived field (blue
 * score, blue work, DAA score, bits, timestamp floor, state root, and on a version 2 network the level parents and
 * pruning point) is computed exactly as validation will recompute it. The state root is the template's mergeset accepted onto its selected parent's state, with red blocks'
 * rewards paid to this template's miner; the template's own transactions are accepted later, by its merger.
 */
import { transactionsRoot } from '../codec/block.ts';
import { encodeHeader, type BlockHeader } from '../codec/header.ts';
import { headerCommitments } from '../chain/header-commitments.ts';
import type { Chain } from '../chain/chain.ts';
import { compactToTarget, prePowHash, workFromTarget } from '../consensus/pow.ts';
import { blockBytesMax, blockMassMax, blockTxCountMax } from '../limits.ts';
import type { AccountReader } from '../state/account.ts';
import { MiningError } from './errors.ts';
import { compareBytes, fromHex } from '../util/bytes.ts';

export interface BlockTemplate {
  readonly header: BlockHeader;
  readonly transactions: readonly Uint8Array[];
  readonly prePowHash: Uint8Array;
  readonly target: bigint;
  /** The chain's block count when the template was built: a different count means the tips may have moved. */
  readonly chainVersion: number;
}

/** What a transaction source (the mempool's `selectForBlock`) gets to choose a block's transactions. */
export interface TransactionSelection {
  /** Accounts after the template's mergeset: the state the template's transactions will most likely meet. */
  readonly state: AccountReader;
  /** The template's DAA score (energy accrues up to it). */
  readonly daaScore: number;
  readonly maxCount: number;
  /** Bytes left for transactions, their length prefixes included, after the header. */
  readonly maxBytes: number;
  /** The block mass budget (src/kinds/mass.ts). */
  readonly maxMass: number;
}

export interface TemplateRequest {
  readonly miner: Uint8Array;
  readonly gpuMining: boolean;
  readonly nowMs: number;
  /** Fixed transactions (tests, `get_block_template` callers that bring their own). */
  readonly transactions?: readonly Uint8Array[];
  /** Chooses the transactions (the mempool); used when `transactions` is absent. */
  readonly selectTransactions?: (selection: TransactionSelection) => readonly Uint8Array[];
}

/** Room for the transaction count varint. */
const txCountBytesMax = 5;

export function buildBlockTemplate(chain: Chain, request: TemplateRequest): BlockTemplate {
  if (request.miner.length !== 33) throw new MiningError(`miner address must be 33 bytes, got ${request.miner.length}`);
  const chainVersion = chain.blockCount();
  const { parents } = chain.virtualParents();
  const child = chain.childState(parents, request.miner);
  const sortedParents = parents.map((id) => fromHex(id)).sort(compareBytes);
  // GHOSTDAG's blue work depends on this block's own work, which depends on its bits: compute bits first.
  const sp = chain.get(child.ghostdag.selectedParent!)!;
  const rules = chain.childRules(sp);
  const target = compactToTarget(rules.bits);
  const data = chain.engine.computeBlock(parents, workFromTarget(target));
  // Version 2 commits to its level parents and the pruning point seen from its selected parent (header-commitments.ts).
  const commitments = chain.params.headerVersion === 2 ? headerCommitments({ params: chain.params, genesis: chain.genesis, get: (id) => chain.get(id), engine: chain.engine }, parents, sp) : undefined;
  const draft: BlockHeader = {
    version: chain.params.headerVersion,
    parents: sortedParents,
    txRoot: transactionsRoot({ transactions: [] }),
    stateRoot: child.stateRoot,
    timestampMs: Math.max(request.nowMs, rules.minTimestampMs),
    bits: rules.bits,
    daaScore: child.daaScore,
    blueScore: data.blueScore,
    blueWork: data.blueWork,
    miner: request.miner,
    gpuMining: request.gpuMining,
    nonce: 0n,
    ...(commitments === undefined ? {} : { levelParents: commitments.levelParents, pruningPoint: commitments.pruningPoint }),
  };
  const transactions =
    request.transactions ??
    request.selectTransactions?.({
      state: child.accounts,
      daaScore: child.daaScore,
      maxCount: blockTxCountMax,
      maxBytes: blockBytesMax - encodeHeader(draft).length - txCountBytesMax,
      maxMass: blockMassMax,
    }) ??
    [];
  const header: BlockHeader = { ...draft, txRoot: transactionsRoot({ transactions }) };
  return { header, transactions, prePowHash: prePowHash(header), target, chainVersion };
}
