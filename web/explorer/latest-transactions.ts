/**
 * The home page's "Latest transactions": the most recent pending and confirmed transfers, newest first. It used to
 * list only the transactions of the 20 blocks in the latest-blocks list — about 20 seconds of chain, so usually
 * nothing (issue 21). Now: pending ones as the node admits them (`pending_transactions`), confirmed ones from every
 * new block (`new_blocks` carries its transactions) and, at load, from the chain blocks below the tip, scanned back
 * until the list is full or `txScanBlocksMax` blocks were read. A pending row becomes confirmed when its block comes.
 * Transactions already pending when the page opened are not listed: no public read lists the mempool (docs/web.md).
 */
import { getBlock } from '../../packages/client/src/index.ts';
import type { NodeClient } from '../lib/node-client.ts';

/** Rows in the list. */
const latestTransactionsMax = 20;
/** Chain blocks read back from the tip at load to fill the list. */
export const txScanBlocksMax = 500;

export interface TxRow {
  readonly hash: string;
  /** Null where the transaction's privacy level hides it (a confidential transfer has no amount, no sender). */
  readonly amount: string | null;
  readonly from: string | null;
  readonly to: string | null;
  /** The transaction's kind (transfer, contract_call, shield …); null for a pending one (its event names none). */
  kind: string | null;
  status: 'pending' | 'confirmed';
  blockHeight: number | null;
  blockHash: string | null;
  /** Newest first: pending rows by arrival, confirmed ones by their block's blue score. */
  order: number;
}

interface BlockTx { hash: string; kind?: string; amount?: number; amount_exact?: string; from?: string; to?: string }
interface BlockLike { height: number; hash: string; blue_score: number; is_chain_block: boolean; transactions?: BlockTx[] }
interface PendingEvent { hash: string; from: string; to: string; amount: number; fee: number }

export interface LatestTransactions {
  addBlock(block: BlockLike): void;
  addPending(event: PendingEvent): void;
  /** Reads chain blocks below `belowHeight` until the list is full (at most txScanBlocksMax of them). */
  scan(client: NodeClient, belowHeight: number): Promise<void>;
  rows(): readonly TxRow[];
}

/** A pending row sorts above every confirmed one. */
const pendingOrderBase = 2 ** 40;

export function createLatestTransactions(onChange: (rows: readonly TxRow[]) => void): LatestTransactions {
  const byHash = new Map<string, TxRow>();
  let arrivals = 0;
  const sorted = (): TxRow[] => [...byHash.values()].sort((a, b) => b.order - a.order);
  const trim = (): void => {
    for (const row of sorted().slice(latestTransactionsMax)) byHash.delete(row.hash);
  };
  const fromBlock = (block: BlockLike): void => {
    for (const tx of block.transactions ?? []) {
      const row = byHash.get(tx.hash);
      const blockOrder = block.blue_score * 1_000 + (block.transactions ?? []).indexOf(tx);
      if (row) Object.assign(row, { kind: tx.kind ?? row.kind, status: 'confirmed', blockHeight: block.height, blockHash: block.hash, order: blockOrder });
      else byHash.set(tx.hash, { hash: tx.hash, amount: tx.amount_exact ?? (tx.amount === undefined ? null : String(tx.amount)), from: tx.from ?? null, to: tx.to ?? null, kind: tx.kind ?? null, status: 'confirmed', blockHeight: block.height, blockHash: block.hash, order: blockOrder });
    }
  };
  return {
    addBlock(block) {
      if (!block.transactions?.length) return;
      fromBlock(block);
      trim();
      onChange(sorted());
    },
    addPending(event) {
      if (byHash.has(event.hash)) return;
      byHash.set(event.hash, { hash: event.hash, amount: String(event.amount), from: event.from, to: event.to, kind: null, status: 'pending', blockHeight: null, blockHash: null, order: pendingOrderBase + arrivals++ });
      trim();
      onChange(sorted());
    },
    async scan(client, belowHeight) {
      for (let h = belowHeight - 1, read = 0; h >= 0 && read < txScanBlocksMax && byHash.size < latestTransactionsMax; h--, read++) {
        const block = await getBlock(client, { height: h });
        if (block.transactions?.length) {
          fromBlock(block);
          onChange(sorted());
        }
      }
      trim();
      onChange(sorted());
    },
    rows: sorted,
  };
}
