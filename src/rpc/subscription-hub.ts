/**
 * The subscription hub: per-connection subscriptions (docs/design.md "Node APIs and access" — request id = subscription id, at most
 * wsSubscriptionsPerConnectionMax, address filter for address_transactions and contract_events) and the fan-out of real events from the
 * chain, the mempool, the ledger and mining control onto notifications
 *   {"jsonrpc":"2.0","method":"subscription","params":{"subscription":<id>,"result":<payload>}}.
 * The state and publish live in subscription-state.ts, the event handlers in subscription-events.ts; this file is
 * the connections and the wiring.
 */
import { wsSubscriptionsPerConnectionMax } from '../limits.ts';
import { toHex } from '../util/bytes.ts';
import { InvalidParamsError, InvalidRequestError, LimitExceededError } from './errors.ts';
import { stringifyJson } from './json.ts';
import type { JsonRpcId, SubscriptionScope } from './method.ts';
import type { RpcServices } from './ports.ts';
import { onBlockAccepted, onTransactionAdmitted, onTransactionsAccepted } from './subscription-events.ts';
import { publish, subscriptionsOf, type HubState, type Subscription } from './subscription-state.ts';
import type { SubscriptionTopic } from './topics.ts';

interface HubConnection extends SubscriptionScope {
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

/** One connection's subscriptions: subscribe and unsubscribe by request id, dropped together when it closes. */
function connect(state: HubState, send: (text: string) => void): HubConnection {
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
      subscriptionsOf(state, t).add(sub);
      return { subscription: id, topic };
    },
    unsubscribe(subscription) {
      const key = stringifyJson(subscription);
      const entry = mine.get(key);
      if (entry === undefined) return false;
      mine.delete(key);
      state.byTopic.get(entry.topic)?.delete(entry.sub);
      return true;
    },
    count: () => mine.size,
    close() {
      for (const { topic, sub } of mine.values()) state.byTopic.get(topic)?.delete(sub);
      mine.clear();
    },
  };
}

export function createSubscriptionHub(services: RpcServices): SubscriptionHub {
  const state: HubState = { services, hrp: services.chain.params.hrp, byTopic: new Map() };
  const detach = [
    services.chain.onBlockAccepted((event) => onBlockAccepted(state, event)),
    services.mempool?.onAdmitted((record) => onTransactionAdmitted(state, record)),
    services.ledger?.onAccepted((read) => onTransactionsAccepted(state, read)),
    services.mining?.onEvent((event) => publish(state, 'mining_events', event)),
  ];
  return {
    connect: (send) => connect(state, send),
    counts() {
      const out = {} as Record<SubscriptionTopic, number>;
      for (const [topic, set] of state.byTopic) out[topic] = set.size;
      return out;
    },
    close() {
      for (const off of detach) off?.();
    },
  };
}
