/**
 * Block templates: the header a miner grinds on. Parents are the best tips (the selected tip first, at most
 * maxParents, dropping the weakest while the mergeset would exceed its limit); every derived field (blue score,
 * blue work, DAA score, bits, timestamp floor) is computed exactly as validation will recompute it.
 */
import { transactionsRoot } from '../codec/block.ts';
import type { BlockHeader } from '../codec/header.ts';
import type { Chain } from '../chain/chain.ts';
import type { BlockId, GhostdagData } from '../consensus/ghostdag.ts';
import { MergesetTooLargeError } from '../consensus/ghostdag-errors.ts';
import { compactToTarget, prePowHash, workFromTarget } from '../consensus/pow.ts';
import { MiningError } from './errors.ts';
import { fromHex } from '../util/bytes.ts';

export interface BlockTemplate {
  readonly header: BlockHeader;
  readonly transactions: readonly Uint8Array[];
  readonly prePowHash: Uint8Array;
  readonly target: bigint;
  /** The chain's block count when the template was built: a different count means the tips may have moved. */
  readonly chainVersion: number;
}

export interface TemplateRequest {
  readonly miner: Uint8Array;
  readonly gpuMining: boolean;
  readonly nowMs: number;
  readonly transactions?: readonly Uint8Array[];
  readonly stateRoot?: Uint8Array;
}

function chooseParents(chain: Chain): { parents: BlockId[]; data: GhostdagData } {
  const tips = chain.tips().map((t) => t.id);
  let parents = chain.engine.virtualParents(tips, chain.params.maxParents);
  // The selected tip stays; weaker tips are dropped while the mergeset would break its limit.
  for (;;) {
    try {
      return { parents, data: chain.engine.computeBlock(parents, 1n) };
    } catch (cause) {
      if (!(cause instanceof MergesetTooLargeError) || parents.length === 1) throw cause;
      parents = parents.slice(0, -1);
    }
  }
}

export function buildBlockTemplate(chain: Chain, request: TemplateRequest): BlockTemplate {
  if (request.miner.length !== 33) throw new MiningError(`miner address must be 33 bytes, got ${request.miner.length}`);
  const chainVersion = chain.blockCount();
  const { parents } = chooseParents(chain);
  const sortedParents = parents.map((id) => fromHex(id)).sort((a, b) => {
    for (let i = 0; i < 32; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
    return 0;
  });
  // GHOSTDAG's blue work depends on this block's own work, which depends on its bits: compute bits first.
  const provisional = chain.engine.computeBlock(parents, 1n);
  const sp = chain.get(provisional.selectedParent!)!;
  const rules = chain.childRules(sp);
  const target = compactToTarget(rules.bits);
  const data = chain.engine.computeBlock(parents, workFromTarget(target));
  const transactions = request.transactions ?? [];
  const header: BlockHeader = {
    version: 1,
    parents: sortedParents,
    txRoot: transactionsRoot({ transactions }),
    stateRoot: request.stateRoot ?? chain.params.genesis.stateRoot,
    timestampMs: Math.max(request.nowMs, rules.minTimestampMs),
    bits: rules.bits,
    daaScore: sp.header.daaScore + data.mergesetBlues.length + data.mergesetReds.length,
    blueScore: data.blueScore,
    blueWork: data.blueWork,
    miner: request.miner,
    gpuMining: request.gpuMining,
    nonce: 0n,
  };
  return { header, transactions, prePowHash: prePowHash(header), target, chainVersion };
}
