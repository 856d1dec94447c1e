/**
 * The subscription hub's state (docs/design.md "Node APIs and access"): the open subscriptions by topic, and the
 * publish operation every event goes through. Each event's payload is serialised once; a subscriber's notification
 * is that text spliced between a prefix and its own id, so 1,000 subscribers cost 1,000 string concatenations, not
 * 1,000 JSON.stringify calls.
 */
import { stringifyJson } from './json.ts';
import type { RpcServices } from './ports.ts';
import type { SubscriptionTopic } from './topics.ts';

export interface Subscription {
  readonly send: (text: string) => void;
  readonly idJson: string;
  readonly addressHex: string | undefined;
}

export interface HubState {
  readonly services: RpcServices;
  /** The network's address prefix, for the addresses in payloads. */
  readonly hrp: string;
  readonly byTopic: Map<SubscriptionTopic, Set<Subscription>>;
}

const prefix = '{"jsonrpc":"2.0","method":"subscription","params":{"subscription":';

export function subscriptionsOf(state: HubState, topic: SubscriptionTopic): Set<Subscription> {
  let set = state.byTopic.get(topic);
  if (set === undefined) state.byTopic.set(topic, (set = new Set()));
  return set;
}

/** Someone listens on `topic`: callers skip building a payload nobody receives. */
export function wanted(state: HubState, topic: SubscriptionTopic): boolean {
  return (state.byTopic.get(topic)?.size ?? 0) > 0;
}

/** Sends `payload` to every subscription of `topic` (those with an address filter only when `addressHex` matches). */
export function publish(state: HubState, topic: SubscriptionTopic, payload: unknown, addressHex?: string): void {
  const subs = state.byTopic.get(topic);
  if (subs === undefined || subs.size === 0) return;
  const tail = `,"result":${stringifyJson(payload)}}}`;
  for (const sub of subs) {
    if (sub.addressHex !== undefined && sub.addressHex !== addressHex) continue;
    sub.send(prefix + sub.idJson + tail);
  }
}
