/**
 * The transaction index (docs/state.md "Transaction index"): tx id → the blocks that carry it, the chain block that
 * accepted it (if any) and its status; address → its accepted transactions in chain order. Inclusion rows are
 * immutable; the "merged by" and history rows follow the selected chain and are rewritten, in the same batch as
 * the chain index, for exactly the chain blocks that leave and join it — no replay.
 */
import type { IndexedBlock } from '../chain/block-index.ts';
import type { Chain } from '../chain/chain.ts';
import type { BlockTransaction } from '../chain/state-port.ts';
import type { BlockId } from '../consensus/ghostdag.ts';
import type { KvOp, KvStore } from '../storage/kv.ts';
import { fromHex, toHex } from '../util/bytes.ts';
import { decodeTransaction, type AnyTransaction } from '../kinds/transaction-codec.ts';
import { energyCost } from '../kinds/kind.ts';
import { addressTouches } from '../kinds/parties.ts';
import { kindOf } from '../kinds/registry.ts';
import { decodeHistoryRow, encodeHistoryRow, HistoryDirection, ledgerKeys, type LedgerReads } from './ledger-rows.ts';
import { ledgerHistoryLimitMax, ledgerInclusionsMax } from './ledger-limits.ts';

/** One transaction's fate in one chain block's acceptance. */
interface AcceptedTxRef {
  readonly hash: Uint8Array;
  readonly bytes: Uint8Array;
  /** The block that carried it. */
  readonly block: BlockId;
}

interface ChainBlockAcceptance {
  readonly block: IndexedBlock;
  readonly accepted: readonly AcceptedTxRef[];
  readonly notAccepted: readonly AcceptedTxRef[];
}

/**
 * What a move of the selected chain did to transactions (Kaspa's VirtualChainChanged): the acceptance of the chain
 * blocks that left (their accepted transactions are pending again unless an added block accepts them) and of those
 * that joined. Emitted once the block that caused the move is durable.
 */
export interface AcceptanceEvent {
  readonly removed: readonly ChainBlockAcceptance[];
  readonly added: readonly ChainBlockAcceptance[];
}

function walkAcceptance(reads: LedgerReads, chainBlock: IndexedBlock, visit: (tx: BlockTransaction, merged: BlockId, position: number, accepted: boolean) => void): void {
  for (const merged of reads.record(chainBlock.id).merged) {
    const txs = reads.transactions(merged.id);
    txs.forEach((tx, i) => visit(tx, merged.id, i, merged.accepted[i] === true));
  }
}

const historyDirections = { out: HistoryDirection.Out, in: HistoryDirection.In, self: HistoryDirection.Self } as const;

/** Rows and event for a move of the selected chain: `removed` highest first, `added` ascending. */
export function chainMoveRows(reads: LedgerReads, removed: readonly IndexedBlock[], added: readonly IndexedBlock[]): { ops: KvOp[]; event: AcceptanceEvent } {
  const ops: KvOp[] = [];
  const historyRows = (block: IndexedBlock, put: boolean) => {
    let ordinal = 0;
    const accepted: AcceptedTxRef[] = [];
    const notAccepted: AcceptedTxRef[] = [];
    walkAcceptance(reads, block, ({ tx, hash, bytes }, merged, position, ok) => {
      (ok ? accepted : notAccepted).push({ hash, bytes, block: merged });
      if (!ok) return;
      const mergedBlock = fromHex(merged);
      for (const { address, direction: way } of addressTouches(tx)) {
        const direction = historyDirections[way];
        const key = ledgerKeys.history(address, block.height, ordinal);
        ops.push(put ? { type: 'put', key, value: encodeHistoryRow({ txHash: hash, mergedBlock, position, direction }) } : { type: 'del', key });
      }
      ordinal++;
    });
    let rewardOrdinal = 0;
    for (const merged of reads.record(block.id).merged) {
      const key = ledgerKeys.mergedBy(fromHex(merged.id));
      ops.push(put ? { type: 'put', key, value: block.hash } : { type: 'del', key });
      // The reward row of whoever got this merged block's reward (acceptance.ts: a blue block's own miner, a red
      // block's merger), so an address's rewards are listed beside its transactions (get_reward_history).
      const recipient = merged.subsidy + merged.fees === 0n ? undefined : merged.blue ? reads.miner(merged.id) : block.header.miner;
      if (recipient === undefined) continue;
      const rewardKey = ledgerKeys.reward(recipient, block.height, rewardOrdinal++);
      ops.push(put ? { type: 'put', key: rewardKey, value: fromHex(merged.id) } : { type: 'del', key: rewardKey });
    }
    return { block, accepted, notAccepted };
  };
  // Deletes first: a removed and an added chain block may share a height, hence history keys.
  const removedAcceptance = removed.map((b) => historyRows(b, false));
  const addedAcceptance = added.map((b) => historyRows(b, true));
  return { ops, event: { removed: removedAcceptance, added: addedAcceptance } };
}

/** Rows written with a block: where each of its transactions sits, and the transaction bytes by id. */
export function inclusionRows(blockHash: Uint8Array, txs: readonly BlockTransaction[]): KvOp[] {
  const ops: KvOp[] = [];
  txs.forEach(({ hash, bytes }, i) => {
    const position = new Uint8Array(4);
    new DataView(position.buffer).setUint32(0, i);
    ops.push({ type: 'put', key: ledgerKeys.inclusion(hash, blockHash), value: position });
    ops.push({ type: 'put', key: ledgerKeys.txBytes(hash), value: bytes });
  });
  return ops;
}

type TransactionStatus = 'pending' | 'confirmed' | 'final' | 'dropped';

interface TransactionInclusion {
  readonly block: BlockId;
  readonly position: number;
  /** The chain block that merged the carrying block; null while no chain block has (it is the tip or off the virtual's past). */
  readonly mergedBy: BlockId | null;
  readonly accepted: boolean;
}

export interface TransactionRecord {
  readonly hash: string;
  readonly bytes: Uint8Array;
  readonly tx: AnyTransaction;
  readonly inclusions: readonly TransactionInclusion[];
  /** pending: carried only by blocks no chain block merged yet; dropped: every carrier merged, none accepted it. */
  readonly status: TransactionStatus;
  readonly accepted: boolean;
  /** The carrying block whose inclusion was accepted, else the first carrier. */
  readonly block: BlockId;
  readonly acceptingBlock: IndexedBlock | null;
  /** virtual blue score − accepting block's blue score + 1; 0 unless accepted. */
  readonly confirmations: number;
  /** The fee paid in energy (0 unless accepted with use_energy). */
  readonly energyUsed: bigint;
}

export interface TxIndexContext {
  readonly chain: Chain;
  readonly store: KvStore;
  readonly reads: LedgerReads;
  readonly virtualBlueScore: () => number;
}

function mergedByOf(ctx: TxIndexContext, block: Uint8Array): BlockId | null {
  const row = ctx.store.get(ledgerKeys.mergedBy(block));
  return row === undefined ? null : toHex(row);
}

export function getTransaction(ctx: TxIndexContext, hash: Uint8Array): TransactionRecord | undefined {
  const bytes = ctx.store.get(ledgerKeys.txBytes(hash));
  if (bytes === undefined) return undefined;
  const inclusions: TransactionInclusion[] = [];
  for (const [key, value] of ctx.store.entries({ prefix: ledgerKeys.inclusionPrefix(hash), limit: ledgerInclusionsMax })) {
    const blockHash = key.subarray(33, 65);
    const position = new DataView(value.buffer, value.byteOffset, 4).getUint32(0);
    const mergedBy = mergedByOf(ctx, blockHash);
    const block = toHex(blockHash);
    const merged = mergedBy === null ? undefined : ctx.reads.record(mergedBy).merged.find((m) => m.id === block);
    inclusions.push({ block, position, mergedBy, accepted: merged?.accepted[position] === true });
  }
  const tx = decodeTransaction(bytes);
  const winner = inclusions.find((i) => i.accepted);
  const acceptingBlock = winner ? ctx.chain.get(winner.mergedBy!)! : null;
  const confirmations = acceptingBlock ? ctx.virtualBlueScore() - acceptingBlock.header.blueScore + 1 : 0;
  const status: TransactionStatus = acceptingBlock
    ? confirmations > ctx.chain.params.finalityDepth
      ? 'final'
      : 'confirmed'
    : inclusions.some((i) => i.mergedBy === null)
      ? 'pending'
      : 'dropped';
  return {
    hash: toHex(hash),
    bytes,
    tx,
    inclusions,
    status,
    accepted: winner !== undefined,
    block: (winner ?? inclusions[0])?.block ?? '',
    acceptingBlock,
    confirmations,
    energyUsed: winner ? energyCost(kindOf(tx).spend(tx)) : 0n,
  };
}

export interface HistoryEntry {
  readonly hash: string;
  readonly direction: 'in' | 'out' | 'self';
  readonly tx: AnyTransaction;
  /** The block that carried it. */
  readonly block: BlockId;
  readonly acceptingBlock: IndexedBlock;
  readonly confirmations: number;
}

const directionNames = { 1: 'out', 2: 'in', 3: 'self' } as const;

/** An address's accepted transactions, newest first (chain order reversed), `offset` entries skipped. */
export function getAddressHistory(ctx: TxIndexContext, address: Uint8Array, limit: number, offset: number): HistoryEntry[] {
  const take = Math.max(0, Math.min(Math.floor(limit), ledgerHistoryLimitMax));
  const skip = Math.max(0, Math.floor(offset));
  const out: HistoryEntry[] = [];
  if (take === 0) return out;
  const virtualBlueScore = ctx.virtualBlueScore();
  let seen = 0;
  for (const [key, value] of ctx.store.entries({ prefix: ledgerKeys.historyPrefix(address), reverse: true })) {
    if (seen++ < skip) continue;
    const row = decodeHistoryRow(value);
    const height = Number(new DataView(key.buffer, key.byteOffset + 34, 8).getBigUint64(0));
    const acceptingBlock = ctx.chain.blockAtHeight(height)!;
    out.push({
      hash: toHex(row.txHash),
      direction: directionNames[row.direction],
      tx: decodeTransaction(ctx.store.get(ledgerKeys.txBytes(row.txHash))!),
      block: toHex(row.mergedBlock),
      acceptingBlock,
      confirmations: virtualBlueScore - acceptingBlock.header.blueScore + 1,
    });
    if (out.length >= take) break;
  }
  return out;
}

export interface RewardEntry {
  /** The block whose reward it is. */
  readonly block: BlockId;
  readonly blue: boolean;
  readonly subsidy: bigint;
  /** The coin fees of the block's accepted transactions, paid with its subsidy. */
  readonly fees: bigint;
  /** The chain block whose acceptance paid it; null for the virtual's (credited in the balance, not yet in a block). */
  readonly acceptingBlock: IndexedBlock | null;
  readonly confirmations: number;
}

/** The block rewards an address received on the current selected chain, newest first, `offset` entries skipped. */
export function getAddressRewards(ctx: TxIndexContext, address: Uint8Array, limit: number, offset: number): RewardEntry[] {
  const take = Math.max(0, Math.min(Math.floor(limit), ledgerHistoryLimitMax));
  const skip = Math.max(0, Math.floor(offset));
  const out: RewardEntry[] = [];
  if (take === 0) return out;
  const virtualBlueScore = ctx.virtualBlueScore();
  let seen = 0;
  for (const [key, value] of ctx.store.entries({ prefix: ledgerKeys.rewardPrefix(address), reverse: true })) {
    if (seen++ < skip) continue;
    const height = Number(new DataView(key.buffer, key.byteOffset + 34, 8).getBigUint64(0));
    const acceptingBlock = ctx.chain.blockAtHeight(height)!;
    const block = toHex(value);
    const merged = ctx.reads.record(acceptingBlock.id).merged.find((m) => m.id === block)!;
    out.push({ block, blue: merged.blue, subsidy: merged.subsidy, fees: merged.fees, acceptingBlock, confirmations: virtualBlueScore - acceptingBlock.header.blueScore + 1 });
    if (out.length >= take) break;
  }
  return out;
}

/** How many block rewards `address` received on the current chain (for paging). */
export function countAddressRewards(ctx: TxIndexContext, address: Uint8Array): number {
  let count = 0;
  for (const _ of ctx.store.entries({ prefix: ledgerKeys.rewardPrefix(address) })) count++;
  return count;
}

/** How many accepted transactions touch `address` on the current chain (for paging). */
export function countAddressHistory(ctx: TxIndexContext, address: Uint8Array): number {
  let count = 0;
  for (const _ of ctx.store.entries({ prefix: ledgerKeys.historyPrefix(address) })) count++;
  return count;
}
