/**
 * The hub's event sources turned into notifications: the chain's accepted blocks (new_blocks, block_confirmations,
 * difficulty changes, network_stats), the mempool's admissions (pending_transactions), the ledger's acceptances
 * (confirmed_transactions, contract_events) and, for both, address_transactions; mining control's events as they are.
 */
import type { BlockAcceptedEvent } from '../chain/chain.ts';
import type { IndexedBlock } from '../chain/block-index.ts';
import { encodeAddress } from '../crypto/address.ts';
import { unitsToCoins } from '../crypto/amount.ts';
import type { ContractReceipt } from '../kinds/contract-receipt.ts';
import { transactionFields } from '../kinds/json-view.ts';
import { addressTouches } from '../kinds/parties.ts';
import { kindOf } from '../kinds/registry.ts';
import { confirmationsWatchDepthBlocks } from '../limits.ts';
import { toHash0x, toHex } from '../util/bytes.ts';
import { explorerStats } from './explorer-stats.ts';
import { renderBlock } from './methods/get-block.ts';
import type { TransactionRecord } from './ports.ts';
import { contractEventJson } from './receipt-view.ts';
import { publish, wanted, type HubState } from './subscription-state.ts';
import { blockDifficulty, confirmationsOf } from './views.ts';

export function onBlockAccepted(state: HubState, event: BlockAcceptedEvent): void {
  const { services } = state;
  const { chain } = services;
  if (wanted(state, 'new_blocks')) publish(state, 'new_blocks', renderBlock(chain, event.block, true));
  if (!event.selectedTipChanged) return;
  if (wanted(state, 'block_confirmations')) {
    let walk: IndexedBlock | null = chain.selectedTip();
    for (let depth = 0; walk && depth < confirmationsWatchDepthBlocks; depth++, walk = walk.selectedParent) {
      publish(state, 'block_confirmations', {
        block_hash: toHash0x(walk.hash),
        confirmations: confirmationsOf(chain, walk.header.blueScore),
        height: walk.height,
      });
    }
  }
  const sp = event.block.selectedParent;
  // Mining control reports difficulty changes itself when wired; otherwise the chain is the source.
  if (services.mining === undefined && sp && sp.header.bits !== event.block.header.bits && wanted(state, 'mining_events')) {
    publish(state, 'mining_events', {
      type: 'difficulty_adjustment',
      new_difficulty: blockDifficulty(chain, event.block),
      old_difficulty: blockDifficulty(chain, sp),
      block_hash: toHash0x(event.block.hash),
    });
  }
  if (wanted(state, 'network_stats')) publish(state, 'network_stats', explorerStats(services));
}

/** address_transactions: one event per address the transaction touches, outgoing for its senders (self included). */
function addressEvent(state: HubState, record: TransactionRecord, extra: Record<string, unknown>): void {
  if (!wanted(state, 'address_transactions')) return;
  const amount = unitsToCoins(kindOf(record.tx).spend(record.tx).amount);
  const base = { hash: toHash0x(record.hash), amount, status: record.status, ...extra };
  for (const { address, direction } of addressTouches(record.tx)) {
    const type = direction === 'in' ? 'incoming' : 'outgoing';
    publish(state, 'address_transactions', { address: encodeAddress(state.hrp, address), type, ...base }, toHex(address));
  }
}

export function onTransactionAdmitted(state: HubState, record: TransactionRecord): void {
  // Every admission comes here: the JSON view is built only when someone listens (it was ~5% of a node's admission).
  if (wanted(state, 'pending_transactions')) {
    const { hash, from, to, amount, fee } = transactionFields(record.tx, record.hash, state.hrp);
    publish(state, 'pending_transactions', { hash, from, to, amount, fee });
  }
  addressEvent(state, record, {});
}

export function onTransactionsAccepted(state: HubState, read: () => readonly TransactionRecord[]): void {
  const { chain } = state.services;
  // A chain block accepts thousands under load: nothing is read or rendered for topics nobody listens to.
  const confirmed = wanted(state, 'confirmed_transactions');
  const events = wanted(state, 'contract_events');
  if (!confirmed && !events && !wanted(state, 'address_transactions')) return;
  for (const record of read()) {
    const carrier = record.blockHash ? chain.get(toHex(record.blockHash)) : undefined;
    const blockHeight = carrier?.height ?? null;
    if (confirmed) {
      const accepting = record.acceptingBlockHash ? chain.get(toHex(record.acceptingBlockHash)) : undefined;
      publish(state, 'confirmed_transactions', {
        hash: toHash0x(record.hash),
        block_height: blockHeight,
        block_hash: record.blockHash ? toHash0x(record.blockHash) : null,
        confirmations: confirmationsOf(chain, accepting?.header.blueScore),
      });
    }
    addressEvent(state, record, { block_height: blockHeight });
    if (events && record.receipt && record.receipt.events.length > 0) contractEvents(state, record, record.receipt, blockHeight);
  }
}

/** contract_events: one notification per event of an accepted contract transaction, filterable by contract. */
function contractEvents(state: HubState, record: TransactionRecord, receipt: ContractReceipt, blockHeight: number | null): void {
  const base = {
    contract_address: encodeAddress(state.hrp, receipt.contract),
    transaction_hash: toHash0x(record.hash),
    method: receipt.method,
    block_height: blockHeight,
    accepting_block_hash: record.acceptingBlockHash ? toHash0x(record.acceptingBlockHash) : null,
  };
  receipt.events.forEach((event, index) => publish(state, 'contract_events', { ...base, index, ...contractEventJson(event) }, toHex(receipt.contract)));
}
