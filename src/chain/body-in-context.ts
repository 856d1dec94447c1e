/**
 * Body in context, the last validation stage: the state root (docs/design.md "Consensus") — the block's mergeset
 * accepted, in consensus order, onto its selected parent's state through the ChainStateMachine port (state-port.ts).
 * Nothing is written: the state machine's rows go on to the commit stage.
 */
import type { BlockHeader } from '../codec/header.ts';
import type { BlockId, GhostdagData, GhostdagEngine } from '../consensus/ghostdag.ts';
import type { NetworkParams } from '../consensus/params.ts';
import { equalBytes, toHex } from '../util/bytes.ts';
import { BlockRuleError } from './errors.ts';
import type { BlockStateInput, BlockTransaction, ChainStateMachine, PreparedBlockState } from './state-port.ts';
import { orderedMergesetOf } from './virtual.ts';

export interface BodyInContextContext {
  readonly params: NetworkParams;
  readonly engine: GhostdagEngine;
  /** Without one every state root must equal genesis's (the empty state), as in DAG-only tests. */
  readonly machine: ChainStateMachine | undefined;
}

export interface BlockInContext {
  readonly id: BlockId;
  readonly hash: Uint8Array;
  readonly header: BlockHeader;
  readonly transactions: readonly BlockTransaction[];
  readonly ghostdag: GhostdagData;
}

/** Throws `body.state-root.mismatch`; returns the state machine's prepared rows (none without a state machine). */
export function processBodyInContext(ctx: BodyInContextContext, block: BlockInContext): PreparedBlockState | undefined {
  const { header, ghostdag } = block;
  const stateInput: BlockStateInput = { ghostdag, mergeset: orderedMergesetOf(ctx.engine, ghostdag), miner: header.miner, daaScore: header.daaScore };
  const prepared = ctx.machine?.prepareBlock(stateInput, { id: block.id, hash: block.hash, header, transactions: block.transactions });
  const expectedRoot = prepared?.stateRoot ?? ctx.params.genesis.stateRoot;
  if (!equalBytes(header.stateRoot, expectedRoot)) {
    throw new BlockRuleError('body.state-root.mismatch', `state root ${toHex(header.stateRoot)}, the mergeset's acceptance gives ${toHex(expectedRoot)}`);
  }
  return prepared;
}
