/**
 * Header in context (after header in isolation, PoW and body in isolation; rusty-kaspa's header processor does the
 * same after PoW): GHOSTDAG of the block's parents, the rules against its selected parent (validate-header.ts), a
 * version 2 header's level parents and pruning point (header-commitments.ts), then the depth rules — bounded merge depth and finality (depth-rules.ts). It reads the DAG and writes nothing; what it
 * computed goes on to the body-in-context and commit stages.
 */
import type { BlockHeader } from '../codec/header.ts';
import type { BlockId, GhostdagData, GhostdagEngine } from '../consensus/ghostdag.ts';
import { compareHashesDefault } from '../consensus/ghostdag-order.ts';
import type { NetworkParams } from '../consensus/params.ts';
import { compactToTarget, workFromTarget } from '../consensus/pow.ts';
import { toHex } from '../util/bytes.ts';
import type { IndexedBlock } from './block-index.ts';
import type { FinalityConflictEvent } from './chain-types.ts';
import { validateHeaderCommitments, type CommitmentDag } from './header-commitments.ts';
import { mergeDepthRoot, mergeDepthViolations } from './depth-rules.ts';
import { BlockRuleError } from './errors.ts';
import type { StoredBlockIndex } from './stored-block-index.ts';
import { ghostdagOfParents, validateHeaderAgainstParent } from './validate-header.ts';

/** The work a block's bits stand for: what it adds to blue work. */
export const workOfBits = (bits: number): bigint => workFromTarget(compactToTarget(bits));

export interface HeaderInContextContext {
  readonly params: NetworkParams;
  readonly engine: GhostdagEngine;
  readonly index: StoredBlockIndex;
  /** The same DAG as the version 2 commitments read it. */
  readonly commitments: CommitmentDag;
  readonly selectedTip: IndexedBlock;
  /** The virtual's finality point (the chain memoises it per selected tip). */
  readonly finalityPoint: () => IndexedBlock;
  readonly conflictListeners: Iterable<(event: FinalityConflictEvent) => void>;
}

/** What the later stages need of a header that passed in context. */
export interface HeaderInContext {
  readonly parentIds: BlockId[];
  readonly work: bigint;
  readonly ghostdag: GhostdagData;
  readonly selectedParent: IndexedBlock;
}

/** Throws BlockRuleError when a rule is broken; a finality conflict also goes to the conflict listeners first. */
export function processHeaderInContext(ctx: HeaderInContextContext, id: BlockId, header: BlockHeader): HeaderInContext {
  const parentIds = header.parents.map(toHex);
  const work = workOfBits(header.bits);
  const ghostdag = ghostdagOfParents(ctx.engine, parentIds, work);
  const selectedParent = ctx.index.get(ghostdag.selectedParent!)!;
  validateHeaderAgainstParent(header, ghostdag, selectedParent, ctx.params);
  validateHeaderCommitments(ctx.commitments, header, parentIds, selectedParent);
  checkDepthRules(ctx, id, ghostdag, selectedParent);
  return { parentIds, work, ghostdag, selectedParent };
}

/** Bounded merge depth, then finality: both before anything is written (rusty-kaspa checks them in header-in-context). */
function checkDepthRules(ctx: HeaderInContextContext, id: BlockId, data: GhostdagData, sp: IndexedBlock): void {
  const { engine, params, selectedTip } = ctx;
  const root = mergeDepthRoot(sp, data.blueScore, params.mergeDepth);
  const deep = mergeDepthViolations(engine, data, root.id);
  if (deep.length > 0) {
    throw new BlockRuleError('context.merge-depth.violated', `it merges ${deep.length} red block(s) (${deep[0]}…) outside the future of its merge depth root ${root.id}, and no blue it merges covers them`);
  }
  // Only a block that would become the selected tip can move the virtual selected chain.
  const tipWork = engine.get(selectedTip.id)!.blueWork;
  const leads = data.blueWork > tipWork || (data.blueWork === tipWork && compareHashesDefault(id, selectedTip.id) > 0);
  if (!leads) return;
  const point = ctx.finalityPoint();
  if (point.id === sp.id || engine.isChainAncestorOf(point.id, sp.id)) return;
  const event: FinalityConflictEvent = { block: id, finalityPoint: point.id, selectedTip: selectedTip.id };
  for (const listener of ctx.conflictListeners) listener(event);
  throw new BlockRuleError('context.finality.violated', `its selected chain leaves the finality point ${point.id} (blue score ${point.header.blueScore}); the selected chain never reorganises below it`);
}
