/**
 * The subscription hub: per-connection subscriptions (docs/design.md "Node APIs and access" — request id = subscription id, at most
 * wsSubscriptionsPerConnectionMax, address filter for address_transactions and contract_events) and the fan-out of real events from the
 * chain, the mempool, the ledger and mining control onto notifications
 *   {"jsonrpc":"2.0","method":"subscription","params":{"subscription":<id>,"result":<payload>}}.
 * Each event's payload is serialised once; a subscriber's notification is that text spliced between a prefix and
 * its own id, so 1,000 subscribers cost 1,000 string concatenations, not 1,000 JSON.stringify calls.
 */
import type { BlockAcceptedEvent } from '../chain/chain.ts';
import type { IndexedBlock } from '../chain/block-index.ts';
import { encodeAddress } from '../crypto/address.ts';
import { transactionFields } from '../kinds/json-view.ts';
import { addressTouches } from '../kinds/parties.ts';
import { kindOf } from '../kinds/registry.ts';
import { unitsToCoins } from '../crypto/amount.ts';
import { confirmationsWatchDepthBlocks, wsSubscriptionsPerConnectionMax } from '../limits.ts';
import type { MiningEvent } from '../mining/control.ts';
import { toHash0x, toHex } from '../util/bytes.ts';
import { InvalidParamsError, InvalidRequestError, LimitExceededError } from './errors.ts';
import { explorerStats } from './explorer-stats.ts';
import { stringifyJson } from './json.ts';
import type { JsonRpcId, SubscriptionScope } from './method.ts';
import { renderBlock } from './methods/get-block.ts';
import { contractEventJson } from './receipt-view.ts';
import type { ContractReceipt } from '../kinds/contract-receipt.ts';
import type { RpcServices, TransactionRecord } from './ports.ts';
import type { SubscriptionTopic } from './topics.ts';
import { blockDifficulty, confirmationsOf } from './views.ts';

export interface HubConnection extends SubscriptionScope {
  /** Subscriptions open on this connection. */
  count(): number;
  /** Drops every subscription (the socket closed). */
  close(): void;
}

export interface SubscriptionHub {
  connect(send: (text: string) => void): HubConnection;
  /** Subscriptions across all connections, by topic (metrics). */
  counts(): Record<SubscriptionTopic, number>;
  /** Detaches from the event sources. */
  close(): void;
}

interface Subscription {
  readonly send: (text: string) => void;
  readonly idJson: string;
  readonly addressHex: string | undefined;
}

const prefix = '{"jsonrpc":"2.0","method":"subscription","params":{"subscription":';

export function createSubscriptionHub(services: RpcServices): SubscriptionHub {
  const { chain } = services;
  const hrp = chain.params.hrp;
  const byTopic = new Map<SubscriptionTopic, Set<Subscription>>();
  const setOf = (topic: SubscriptionTopic): Set<Subscription> => {
    let set = byTopic.get(topic);
    if (set === undefined) byTopic.set(topic, (set = new Set()));
    return set;
  };
  const wanted = (topic: SubscriptionTopic): boolean => (byTopic.get(topic)?.size ?? 0) > 0;

  const publish = (topic: SubscriptionTopic, payload: unknown, addressHex?: string): void => {
    const subs = byTopic.get(topic);
    if (subs === undefined || subs.size === 0) return;
    const tail = `,"result":${stringifyJson(payload)}}}`;
    for (const sub of subs) {
      if (sub.addressHex !== undefined && sub.addressHex !== addressHex) continue;
      sub.send(prefix + sub.idJson + tail);
    }
  };

  const onBlock = (event: BlockAcceptedEvent): void => {
    if (wanted('new_blocks')) publish('new_blocks', renderBlock(chain, event.block, true));
    if (!event.selectedTipChanged) return;
    if (wanted('block_confirmations')) {
      let walk: IndexedBlock | null = chain.selectedTip();
      for (let depth = 0; walk && depth < confirmationsWatchDepthBlocks; depth++, walk = walk.selectedParent) {
        publish('block_confirmations', {
          block_hash: toHash0x(walk.hash),
          confirmations: confirmationsOf(chain, walk.header.blueScore),
          height: walk.height,
        });
      }
    }
    const sp = event.block.selectedParent;
    // Mining control reports difficulty changes itself when wired; otherwise the chain is the source.
    if (services.mining === undefined && sp && sp.header.bits !== event.block.header.bits && wanted('mining_events')) {
      publish('mining_events', {
        type: 'difficulty_adjustment',
        new_difficulty: blockDifficulty(chain, event.block),
        old_difficulty: blockDifficulty(chain, sp),
        block_hash: toHash0x(event.block.hash),
      });
    }
    if (wanted('network_stats')) publish('network_stats', explorerStats(services));
  };

  /** address_transactions: one event per address the transaction touches, outgoing for its senders (self included). */
  const addressEvent = (record: TransactionRecord, extra: Record<string, unknown>): void => {
    if (!wanted('address_transactions')) return;
    const amount = unitsToCoins(kindOf(record.tx).spend(record.tx).amount);
    const base = { hash: toHash0x(record.hash), amount, status: record.status, ...extra };
    for (const { address, direction } of addressTouches(record.tx)) {
      const type = direction === 'in' ? 'incoming' : 'outgoing';
      publish('address_transactions', { address: encodeAddress(hrp, address), type, ...base }, toHex(address));
    }
  };

  const onAdmitted = (record: TransactionRecord): void => {
    const { hash, from, to, amount, fee } = transactionFields(record.tx, record.hash, hrp);
    publish('pending_transactions', { hash, from, to, amount, fee });
    addressEvent(record, {});
  };

  const onAccepted = (records: readonly TransactionRecord[]): void => {
    for (const record of records) {
      const carrier = record.blockHash ? chain.get(toHex(record.blockHash)) : undefined;
      const accepting = record.acceptingBlockHash ? chain.get(toHex(record.acceptingBlockHash)) : undefined;
      const blockHeight = carrier?.height ?? null;
      publish('confirmed_transactions', {
        hash: toHash0x(record.hash),
        block_height: blockHeight,
        block_hash: record.blockHash ? toHash0x(record.blockHash) : null,
        confirmations: confirmationsOf(chain, accepting?.header.blueScore),
      });
      addressEvent(record, { block_height: blockHeight });
      if (record.receipt && record.receipt.events.length > 0 && wanted('contract_events')) contractEvents(record, record.receipt, blockHeight);
    }
  };

  /** contract_events: one notification per event of an accepted contract transaction, filterable by contract. */
  const contractEvents = (record: TransactionRecord, receipt: ContractReceipt, blockHeight: number | null): void => {
    const base = {
      contract_address: encodeAddress(hrp, receipt.contract),
      transaction_hash: toHash0x(record.hash),
      method: receipt.method,
      block_height: blockHeight,
      accepting_block_hash: record.acceptingBlockHash ? toHash0x(record.acceptingBlockHash) : null,
    };
    receipt.events.forEach((event, index) => publish('contract_events', { ...base, index, ...contractEventJson(event) }, toHex(receipt.contract)));
  };

  const onMining = (event: MiningEvent): void => publish('mining_events', event);

  const detach = [
    chain.onBlockAccepted(onBlock),
    services.mempool?.onAdmitted(onAdmitted),
    services.ledger?.onAccepted(onAccepted),
    services.mining?.onEvent(onMining),
  ];

  return {
    connect(send) {
      const mine = new Map<string, { topic: SubscriptionTopic; sub: Subscription }>();
      return {
        subscribe(id: JsonRpcId | undefined, topic: string, filter) {
          if (id === undefined || id === null) throw new InvalidRequestError('subscribe needs a non-null id: it becomes the subscription id');
          const idJson = stringifyJson(id);
          if (mine.has(idJson)) throw new InvalidRequestError(`subscription id ${idJson} is already in use on this connection`);
          if (mine.size >= wsSubscriptionsPerConnectionMax) {
            throw new LimitExceededError(`at most ${wsSubscriptionsPerConnectionMax} subscriptions per connection`, { limit: wsSubscriptionsPerConnectionMax });
          }
          const t = topic as SubscriptionTopic;
          const sub: Subscription = { send, idJson, addressHex: filter.address === undefined ? undefined : toHex(filter.address) };
          if (t === 'address_transactions' && sub.addressHex === undefined) {
            throw new InvalidParamsError('address_transactions needs params.address', [{ path: 'address', message: 'required for address_transactions' }]);
          }
          mine.set(idJson, { topic: t, sub });
          setOf(t).add(sub);
          return { subscription: id, topic };
        },
        unsubscribe(subscription) {
          const key = stringifyJson(subscription);
          const entry = mine.get(key);
          if (entry === undefined) return false;
          mine.delete(key);
          byTopic.get(entry.topic)?.delete(entry.sub);
          return true;
        },
        count: () => mine.size,
        close() {
          for (const { topic, sub } of mine.values()) byTopic.get(topic)?.delete(sub);
          mine.clear();
        },
      };
    },
    counts() {
      const out = {} as Record<SubscriptionTopic, number>;
      for (const [topic, set] of byTopic) out[topic] = set.size;
      return out;
    },
    close() {
      for (const off of detach) off?.();
    },
  };
}
