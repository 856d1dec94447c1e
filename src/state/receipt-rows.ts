/**
 * Contract receipts in the ledger's store (table E, ledger-rows.ts): written with the accepting chain block's other
 * rows, keyed by (accepting block, tx hash), so a reorg that accepts the transaction again under another block
 * writes a new receipt and the transaction index's accepting block picks the current one. Not consensus: no root
 * covers them (src/kinds/contract-receipt.ts).
 */
import { decodeReceipt, encodeReceipt, type ContractReceipt } from '../kinds/contract-receipt.ts';
import type { KvOp, KvStore } from '../storage/kv.ts';
import type { MergedBlockOutcome } from './acceptance.ts';
import { ledgerKeys, type LedgerReads } from './ledger-rows.ts';

export function receiptRows(acceptingBlock: Uint8Array, blocks: readonly MergedBlockOutcome[], reads: Pick<LedgerReads, 'transactions'>): KvOp[] {
  const ops: KvOp[] = [];
  for (const block of blocks) {
    if (block.receipts.length === 0) continue;
    const txs = reads.transactions(block.id);
    for (const { index, receipt } of block.receipts) {
      ops.push({ type: 'put', key: ledgerKeys.receipt(acceptingBlock, txs[index]!.hash), value: encodeReceipt(receipt) });
    }
  }
  return ops;
}

export function readReceipt(store: Pick<KvStore, 'get'>, acceptingBlock: Uint8Array, txHash: Uint8Array): ContractReceipt | undefined {
  const bytes = store.get(ledgerKeys.receipt(acceptingBlock, txHash));
  return bytes === undefined ? undefined : decodeReceipt(bytes);
}
