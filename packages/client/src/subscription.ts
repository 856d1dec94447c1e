/**
 * A subscription as an async iterator: `for await (const block of subscribe(transport, 'new_blocks'))`. It
 * subscribes at once (so no event after the call is missed), buffers what arrives before the loop asks, and
 * unsubscribes when the loop ends — `break`, `return`, a throw — or when the transport is closed for good.
 */
import { WeftError } from '../../../src/errors.ts';
import type { SubscribeOptions, SubscriptionTopic, TopicEvents } from './schema.ts';
import type { SubscribingTransport, Unsubscribe } from './transport.ts';

/** Events held for a loop that does not keep up; one more fails the iterator (and unsubscribes). */
export const subscriptionBufferMax = 1_024;

/** The loop fell more than subscriptionBufferMax events behind the node. */
export class SubscriptionOverflowError extends WeftError {
  constructor(topic: string, bufferMax: number) {
    super('limit_exceeded', `subscription to ${topic}: more than ${bufferMax} events arrived that the loop had not read`, { details: { topic, buffer_max: bufferMax } });
  }
}

export interface Subscription<T> extends AsyncIterableIterator<T> {
  /** Settles once the node acknowledged the subscription (rejects with its error, e.g. InvalidParamsError). */
  readonly ready: Promise<void>;
  /** Ends the iteration and unsubscribes (what `break` does). */
  unsubscribe(): Promise<void>;
}

interface IteratorState<T> {
  readonly buffered: T[];
  waiter: { resolve(result: IteratorResult<T>): void; reject(error: unknown): void } | undefined;
  failure: unknown;
  ended: boolean;
  unsubscribe: Promise<Unsubscribe | undefined>;
}

function deliver<T>(state: IteratorState<T>, event: T, overflow: () => void): void {
  if (state.ended) return;
  if (state.waiter) {
    const { resolve } = state.waiter;
    state.waiter = undefined;
    return resolve({ value: event, done: false });
  }
  if (state.buffered.length >= subscriptionBufferMax) return overflow();
  state.buffered.push(event);
}

/** Ends the iteration: a waiting `next()` gets `done` (or `failure`), and the node is told to unsubscribe. */
async function finish<T>(state: IteratorState<T>, failure?: unknown): Promise<void> {
  if (state.ended) return;
  state.ended = true;
  state.failure = failure;
  const waiter = state.waiter;
  state.waiter = undefined;
  if (waiter && failure !== undefined) waiter.reject(failure);
  else waiter?.resolve({ value: undefined, done: true });
  const unsubscribe = await state.unsubscribe;
  // A socket that closed meanwhile has nothing to unsubscribe on: the subscription is forgotten either way.
  await unsubscribe?.().catch(() => undefined);
}

function nextEvent<T>(state: IteratorState<T>): Promise<IteratorResult<T>> {
  if (state.buffered.length > 0) return Promise.resolve({ value: state.buffered.shift()!, done: false });
  if (state.failure !== undefined) {
    const failure = state.failure;
    state.failure = undefined;
    return Promise.reject(failure);
  }
  if (state.ended) return Promise.resolve({ value: undefined, done: true });
  return new Promise((resolve, reject) => (state.waiter = { resolve, reject }));
}

export function subscribe<K extends SubscriptionTopic>(transport: SubscribingTransport, topic: K, options: SubscribeOptions = {}): Subscription<TopicEvents[K]> {
  type T = TopicEvents[K];
  const state: IteratorState<T> = { buffered: [], waiter: undefined, failure: undefined, ended: false, unsubscribe: Promise.resolve(undefined) };
  const overflow = () => void finish(state, new SubscriptionOverflowError(topic, subscriptionBufferMax));
  const extra = options.address === undefined ? {} : { address: options.address };
  const subscribed = transport.subscribe<T>(topic, (event) => deliver(state, event, overflow), extra, () => void finish(state));
  state.unsubscribe = subscribed.catch(() => undefined);
  const ready = subscribed.then(
    () => undefined,
    (error: unknown) => {
      void finish(state, error);
      throw error;
    },
  );
  ready.catch(() => undefined); // the failure also reaches the loop through next()
  const iterator: Subscription<T> = {
    ready,
    next: () => nextEvent(state),
    async return() {
      await finish(state);
      return { value: undefined, done: true };
    },
    unsubscribe: () => finish(state),
    [Symbol.asyncIterator]: () => iterator,
  };
  return iterator;
}
