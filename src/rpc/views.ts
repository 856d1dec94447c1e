/**
 * JSON views of chain objects, exactly the seed's field tables (node-client-protocol.md "Resources") plus the DAG
 * fields of docs/design.md "Consensus". Hashes are 0x + 64 lowercase hex, amounts coins (JSON numbers, ≤ 8 decimals), timestamps
 * Unix seconds; a block's u64 `nonce` is a bigint printed as an exact JSON integer (json.ts).
 */
import { receiptJson } from './receipt-view.ts';
import { formatUnits } from '../crypto/amount.ts';
import type { ContractReceipt } from '../kinds/contract-receipt.ts';
import { encodeBlock, type Block } from '../codec/block.ts';
import { decodeTransaction, txHash, type AnyTransaction } from '../kinds/transaction-codec.ts';
import type { IndexedBlock } from '../chain/block-index.ts';
import { encodeAddress } from '../crypto/address.ts';
import { transactionFields } from '../kinds/json-view.ts';
import { compactToTarget, difficultyFromTarget } from '../consensus/pow.ts';
import { toHash0x, toHex } from '../util/bytes.ts';
import type { ChainView, TransactionRecord } from './ports.ts';

export const secondsOf = (ms: number): number => Math.floor(ms / 1000);

export function blockDifficulty(chain: ChainView, block: IndexedBlock): number {
  return difficultyFromTarget(compactToTarget(block.header.bits), chain.params.maxTarget);
}

/**
 * A contract transaction's `fee` once its receipt exists is what it paid, gas used × gas price (what get_supply's
 * fees_total adds up), not the most it promised (`max_fee`); `gas_used` beside it. Other transactions unchanged.
 */
function withPaidFee(fields: Record<string, unknown>, receipt: ContractReceipt | undefined): Record<string, unknown> {
  const priceUnits = fields.gas_price_units;
  if (receipt === undefined || typeof priceUnits !== 'string') return fields;
  const paid = formatUnits(receipt.gasUsed * BigInt(priceUnits));
  return { ...fields, fee: Number(paid), fee_exact: paid, gas_used: Number(receipt.gasUsed) };
}

/** Where a block's contract transactions find their receipts (the ledger's transaction index). */
export type ReceiptLookup = (hash: Uint8Array) => ContractReceipt | undefined;

/** A transaction as it sits in a block (the seed leaves the `transactions` element shape open). */
export function blockTransactionJson(tx: AnyTransaction, hrp: string, receiptOf?: ReceiptLookup): Record<string, unknown> {
  const hash = txHash(tx);
  const fields = transactionFields(tx, hash, hrp);
  return receiptOf && typeof fields.gas_price_units === 'string' ? withPaidFee(fields, receiptOf(hash)) : fields;
}

/** The virtual's blue score: what confirmations count from (docs/design.md "Consensus"). Cached per DAG size. */
const virtualCache = new WeakMap<ChainView, { count: number; blueScore: number }>();
function virtualBlueScore(chain: ChainView): number {
  const count = chain.blockCount();
  const cached = virtualCache.get(chain);
  if (cached && cached.count === count) return cached.blueScore;
  const parents = chain.engine.virtualParents(chain.tips().map((t) => t.id), chain.params.maxParents);
  const blueScore = chain.engine.computeBlock(parents, 1n).blueScore;
  virtualCache.set(chain, { count, blueScore });
  return blueScore;
}

/** docs/design.md "Consensus": virtual blue score − blue score of the accepting chain block + 1; 0 while pending or unknown. */
export function confirmationsOf(chain: ChainView, blueScore: number | undefined): number {
  if (blueScore === undefined) return 0;
  return Math.max(0, virtualBlueScore(chain) - blueScore + 1);
}

function isOnSelectedChain(chain: ChainView, block: IndexedBlock): boolean {
  return chain.blockAtHeight(block.height)?.id === block.id;
}

export function blockJson(chain: ChainView, entry: IndexedBlock, block: Block, includeTransactions: boolean, receiptOf?: ReceiptLookup): Record<string, unknown> {
  const h = entry.header;
  const hrp = chain.params.hrp;
  const json: Record<string, unknown> = {
    height: entry.height,
    hash: toHash0x(entry.hash),
    previous_hash: entry.selectedParent === null ? null : toHash0x(entry.selectedParent.hash),
    timestamp: secondsOf(h.timestampMs),
    difficulty: blockDifficulty(chain, entry),
    nonce: h.nonce,
    merkle_root: toHash0x(h.txRoot),
    transaction_count: block.transactions.length,
    size: encodeBlock(block).length,
    miner: encodeAddress(hrp, h.miner),
    gpu_mining: h.gpuMining,
    parent_hashes: h.parents.map(toHash0x),
    blue_score: h.blueScore,
    blue_work: `0x${h.blueWork.toString(16)}`,
    daa_score: h.daaScore,
    state_root: toHash0x(h.stateRoot),
    bits: h.bits,
    timestamp_ms: h.timestampMs,
    is_chain_block: isOnSelectedChain(chain, entry),
    confirmations: isOnSelectedChain(chain, entry) ? confirmationsOf(chain, h.blueScore) : 0,
  };
  if (includeTransactions) json.transactions = block.transactions.map((bytes) => blockTransactionJson(decodeTransaction(bytes), hrp, receiptOf));
  return json;
}

/**
 * The seed's Transaction (REST) table: the transaction's fields plus where it sits, its status and confirmations
 * (docs/design.md's blue-score rule), for get_transaction, REST, histories and the A2A skill alike.
 */
export function transactionJson(chain: ChainView, record: TransactionRecord): Record<string, unknown> {
  const carrier = record.blockHash ? chain.get(toHex(record.blockHash)) : undefined;
  const accepting = record.acceptingBlockHash ? chain.get(toHex(record.acceptingBlockHash)) : undefined;
  const settled = record.status === 'confirmed' || record.status === 'final';
  return {
    ...withPaidFee(transactionFields(record.tx, record.hash, chain.params.hrp), record.receipt),
    block_height: carrier ? carrier.height : null,
    block_hash: record.blockHash ? toHash0x(record.blockHash) : null,
    confirmations: settled ? confirmationsOf(chain, accepting?.header.blueScore) : 0,
    timestamp: secondsOf(record.timestampMs),
    energy_used: Number(record.energyUsed),
    energy_used_exact: record.energyUsed.toString(),
    status: record.status,
    accepting_block_hash: record.acceptingBlockHash ? toHash0x(record.acceptingBlockHash) : null,
    ...(record.receipt ? { receipt: receiptJson(record.receipt, chain.params.hrp) } : {}),
  };
}
