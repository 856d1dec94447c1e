/**
 * Reading an open chain (src/chain/chain.ts): stored blocks, GHOSTDAG data, the tips, the finality point (memoised
 * per selected tip), the rules and the state a child block must meet, and the listener sets.
 */
import { decodeBlock, type Block } from '../codec/block.ts';
import type { BlockId, GhostdagData } from '../consensus/ghostdag.ts';
import type { NetworkParams } from '../consensus/params.ts';
import { assert } from '../errors.ts';
import type { IndexedBlock } from './block-index.ts';
import type { ChainState } from './chain-state.ts';
import { chainKeys } from './chain-store.ts';
import type { ChildState } from './chain-types.ts';
import { expectedBits, pastMedianTimeMs } from './child-rules.ts';
import { finalityPoint } from './depth-rules.ts';
import type { AccountLookup, BlockStateInput } from './state-port.ts';
import { orderedMergesetOf } from './virtual.ts';

/** The virtual's finality point: the selected chain block finalityDepth blue score below the selected tip. */
export function finalityPointOf(state: ChainState): IndexedBlock {
  const { selectedTip, finalityMemo } = state;
  if (finalityMemo?.tip === selectedTip.id) return finalityMemo.point;
  let point = finalityPoint(selectedTip, state.params.finalityDepth);
  // A joined chain knows nothing below its pruning point, and every block it accepts has it on its chain.
  if (state.joinedAt && point.header.blueScore < state.joinedAt.header.blueScore) point = state.joinedAt;
  state.finalityMemo = { tip: selectedTip.id, point };
  return point;
}

export function storedBlock(state: ChainState, id: BlockId): Block | undefined {
  const entry = state.index.get(id);
  if (!entry) return undefined;
  const bytes = state.store.get(chainKeys.block(entry.hash));
  return bytes ? decodeBlock(bytes) : undefined;
}

export function ghostdagOf(state: ChainState, id: BlockId): GhostdagData {
  const data = state.engine.get(id);
  assert(data !== undefined, `no GHOSTDAG data for ${id}`);
  return data;
}

export function tipBlocks(state: ChainState): IndexedBlock[] {
  return [...state.tips.keys()].map((id) => state.index.get(id)!);
}

/** The bits and the earliest timestamp a child of `sp` must carry. */
export function childRules(params: NetworkParams, sp: IndexedBlock): { bits: number; minTimestampMs: number } {
  return { bits: expectedBits(params, sp), minTimestampMs: pastMedianTimeMs(params, sp) + 1 };
}

const emptyAccounts: AccountLookup = { account: () => ({ balance: 0n, nonce: 0n, energy: 0n }) };

/** The state a block with these parents, mined by `miner`, commits to (null miner: the virtual view). */
export function childState(state: ChainState, parents: readonly BlockId[], miner: Uint8Array | null): ChildState {
  const { engine, params } = state;
  const ghostdag = engine.computeBlock(parents, 1n);
  const mergeset = orderedMergesetOf(engine, ghostdag);
  const daaScore = state.index.get(ghostdag.selectedParent!)!.header.daaScore + ghostdag.mergesetSize;
  const input: BlockStateInput = { ghostdag, mergeset, miner, daaScore };
  const preview = state.machine?.previewBlock(input) ?? { stateRoot: params.genesis.stateRoot.slice(), accounts: emptyAccounts };
  return { parents: [...parents], ghostdag, mergeset, daaScore, ...preview };
}

export function pruningPointRecord(state: ChainState, id: BlockId): Uint8Array | undefined {
  const entry = state.index.get(id);
  return entry === undefined ? undefined : state.machine?.pruningPointRecord?.(entry);
}

/** Adds a listener; the returned function removes it. */
export function listen<E>(listeners: Set<(event: E) => void>, listener: (event: E) => void): () => boolean {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
