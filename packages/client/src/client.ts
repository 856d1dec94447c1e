/**
 * The client object (viem's `createClient` + its actions): `client.getBlock({ height })` for every method, typed
 * `client.request('get_block', …)`, and `client.subscribe(topic)` as an async iterator when the transport is a
 * WebSocket. Each member is the free function of actions.ts / subscription.ts with the transport bound.
 */
import { ErrorCode } from '../../../src/errors.ts';
import { actions, request, type Action, type Actions } from './actions.ts';
import { rpcCallError } from './errors.ts';
import type { MethodArgs, MethodName, MethodReturnType, SubscribeOptions, SubscriptionTopic, TopicEvents } from './schema.ts';
import { subscribe, type Subscription } from './subscription.ts';
import { canSubscribe, type SubscribingTransport, type Transport } from './transport.ts';

type Bound<A> = A extends (client: Transport, ...args: infer P) => infer R ? (...args: P) => R : never;
export type BoundActions = { readonly [K in keyof Actions]: Bound<Actions[K]> };

interface ClientBase<T extends Transport> extends Transport {
  readonly transport: T;
  request<N extends MethodName>(method: N, ...args: MethodArgs<N>): Promise<MethodReturnType<N>>;
}

interface SubscribingMembers {
  subscribe<K extends SubscriptionTopic>(topic: K, options?: SubscribeOptions): Subscription<TopicEvents[K]>;
}

export type Client<T extends Transport = Transport> = ClientBase<T> & BoundActions & (T extends SubscribingTransport ? SubscribingMembers : unknown);

export function createClient<T extends Transport>(config: { readonly transport: T }): Client<T> {
  const { transport } = config;
  const bound = Object.fromEntries(
    Object.entries(actions).map(([name, act]) => [name, (...args: unknown[]) => (act as Action<MethodName>)(transport, ...(args as []))]),
  ) as unknown as BoundActions;
  const subscribeOn = (topic: SubscriptionTopic, options?: SubscribeOptions) => {
    if (!canSubscribe(transport)) throw rpcCallError('subscribe', ErrorCode.MethodNotFound, 'subscriptions need the WebSocket transport');
    return subscribe(transport, topic, options);
  };
  const client = {
    ...bound,
    transport,
    request: (method: string, params?: Record<string, unknown>) => request(transport, method as MethodName, params as never),
    subscribe: subscribeOn,
  };
  return client as unknown as Client<T>;
}
