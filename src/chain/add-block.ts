/**
 * Adding a block (src/chain/chain.ts, docs/chain.md "Pipeline"): admission (header in isolation, PoW, the duplicate,
 * refused and orphan gates), the optional preverify hook, then the stages after PoW in order — body in isolation,
 * header in context, body in context, the commit — synchronously up to the store write, so calls are processed
 * strictly in call order without a lock. A block is reported validated (onBlockValidated: relay tells peers) as soon
 * as its batch is queued, and accepted once the batch is durable; its orphaned children get their turn as soon as it
 * is indexed.
 */
import { encodeBlock, type Block } from '../codec/block.ts';
import type { BlockId } from '../consensus/ghostdag.ts';
import { toHex } from '../util/bytes.ts';
import { admitBlock } from './admit-block.ts';
import type { IndexedBlock } from './block-index.ts';
import { processBodyInContext } from './body-in-context.ts';
import { finalityPointOf } from './chain-reads.ts';
import type { ChainState } from './chain-state.ts';
import type { AddBlockResult } from './chain-types.ts';
import { assembleBlockBatch } from './commit-block.ts';
import { BlockRuleError } from './errors.ts';
import { processHeaderInContext } from './header-in-context.ts';
import { checkAboveJoin } from './trusted-import.ts';
import { validateBodyInIsolation } from './validate-body.ts';

interface Processed {
  readonly entry: IndexedBlock;
  readonly durable: Promise<void>;
  readonly changed: boolean;
  /** Body, header and acceptance milliseconds, then the performance.now() the commit began at. */
  readonly stages: readonly [number, number, number, number];
}

/** Validates and stores a block. Throws BlockRuleError when a rule is broken; nothing is stored then. */
export async function addBlock(state: ChainState, block: Block): Promise<AddBlockResult> {
  const { writer, options } = state;
  const fatal = writer.fatal();
  if (fatal) throw fatal;
  let admission = admit(state, block);
  if (admission.status !== 'admitted') return admission;
  const began = performance.now();
  if (options.preverify) {
    await options.preverify(block);
    // Other blocks moved on meanwhile (this one may have come in twice): admit again, atomically with the stages.
    const fatalSince = writer.fatal();
    if (fatalSince) throw fatalSince;
    admission = admit(state, block);
    if (admission.status !== 'admitted') return admission;
  }
  const { id, hash } = admission;
  let processed: Processed;
  try {
    processed = processBlock(state, block, hash, id);
  } catch (error) {
    // Only rule failures of a block whose PoW checked out are remembered: they cost real work to make.
    if (error instanceof BlockRuleError) state.invalid.mark(id, hash, error.rule);
    throw error;
  }
  const { entry, durable, changed, stages } = processed;
  for (const listener of state.validatedListeners) listener({ block: entry, body: block });
  adoptOrphans(state, id);
  await durable;
  if (options.onBlockTimings) {
    const [bodyMs, headerMs, acceptanceMs, acceptedAt] = stages;
    const now = performance.now();
    const totalMs = now - began;
    const preverifyMs = totalMs - (now - acceptedAt) - bodyMs - headerMs - acceptanceMs;
    options.onBlockTimings({ id, transactions: block.transactions.length, preverifyMs, bodyMs, headerMs, acceptanceMs, commitMs: now - acceptedAt, totalMs });
  }
  return { status: 'accepted', block: entry, selectedTipChanged: changed };
}

function admit(state: ChainState, block: Block): ReturnType<typeof admitBlock> {
  const { params, clock, engine, invalid, orphans } = state;
  return admitBlock({ params, nowMs: clock.nowMs(), engine, invalid, orphans }, block);
}

/** The stages after PoW, in order; throws at the first broken rule, before anything is written. */
function processBlock(state: ChainState, block: Block, hash: Uint8Array, id: BlockId): Processed {
  const { params, engine, index, commitments, conflictListeners, joinedAt, machine, tips, selectedChain, pruner } = state;
  const header = block.header;
  const t0 = performance.now();
  // Cheap, and before anything reads the truncated past below a joined chain's point.
  if (joinedAt) checkAboveJoin(engine, joinedAt.id, header.parents.map(toHex));
  const transactions = validateBodyInIsolation(block, params, state.verifier);
  const encoded = encodeBlock(block);
  const t1 = performance.now();
  const finalityPoint = () => finalityPointOf(state);
  const inContext = processHeaderInContext({ params, engine, index, commitments, selectedTip: state.selectedTip, finalityPoint, conflictListeners }, id, header);
  const t2 = performance.now();
  const prepared = processBodyInContext({ params, engine, machine }, { id, hash, header, transactions, ghostdag: inContext.ghostdag });
  const t3 = performance.now();
  // --- commit: nothing above wrote anything ---
  const { entry, ops, event } = assembleBlockBatch(
    { engine, index, tips, selectedChain, machine, selectedTip: state.selectedTip },
    { id, hash, header, encoded, parentIds: inContext.parentIds, work: inContext.work, ghostdag: inContext.ghostdag, prepared },
  );
  if (event.selectedTipChanged) {
    state.selectedTip = entry;
    if (pruner) ops.push(...pruner.tipMoved(entry));
  }
  const durable = state.writer.write(ops);
  durable.then(
    () => {
      for (const listener of state.listeners) listener(event);
      pruner?.kick();
    },
    () => undefined,
  );
  return { entry, durable, changed: event.selectedTipChanged, stages: [t1 - t0, t2 - t1, t3 - t2, t3] };
}

/** Children that were waiting for `parentId` get their turn; their failures are theirs alone. */
function adoptOrphans(state: ChainState, parentId: BlockId): void {
  for (const orphan of state.orphans.takeChildrenOf(parentId)) {
    void addBlock(state, orphan.block).catch(() => undefined);
  }
}
