import { z } from 'zod';
import { MethodNotFoundError } from '../errors.ts';
import { defineMethod, type RpcCallContext, type SubscriptionScope } from '../method.ts';
import { addressSchema, parseAddress } from '../schemas.ts';
import { subscriptionTopics } from '../topics.ts';

const subscriptionIdResult = z.union([z.string(), z.number()]);

function scopeOf(ctx: RpcCallContext, method: string): SubscriptionScope {
  // geth answers eth_subscribe over plain HTTP the same way: the method exists only where notifications can flow.
  if (ctx.subscriptions === undefined) throw new MethodNotFoundError(method, 'subscriptions need the WebSocket endpoint (port 8081)');
  return ctx.subscriptions;
}

/** docs/design.md "Node APIs and access": the request id becomes the subscription id; address_transactions takes params.address. */
export const subscribe = defineMethod({
  name: 'subscribe',
  summary: 'WebSocket only: subscribe to a topic; the request id becomes the subscription id.',
  params: z.strictObject({ topic: z.enum(subscriptionTopics), address: addressSchema.optional() }),
  scope: 'public',
  result: z.object({ subscription: subscriptionIdResult.nullable().describe('the request id (never null: subscribe refuses a null id)'), topic: z.string() }),
  run(params, ctx) {
    const scope = scopeOf(ctx, 'subscribe');
    const address = params.address === undefined ? undefined : parseAddress(ctx, params.address);
    return scope.subscribe(ctx.id, params.topic, address === undefined ? {} : { address, addressText: params.address! });
  },
});

export const unsubscribe = defineMethod({
  name: 'unsubscribe',
  summary: 'WebSocket only: cancel a subscription by its id; returns whether it existed.',
  params: z.strictObject({ subscription: z.union([z.string().max(128), z.number().int()]) }),
  scope: 'public',
  result: z.object({ unsubscribed: z.boolean(), subscription: subscriptionIdResult }),
  run(params, ctx) {
    const scope = scopeOf(ctx, 'unsubscribe');
    return { unsubscribed: scope.unsubscribe(params.subscription), subscription: params.subscription };
  },
});
