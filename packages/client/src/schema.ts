/**
 * Every JSON-RPC method's params and result, derived from the node's method table (src/rpc/method-table.ts): the
 * table's entries are `defineMethod` values whose zod schemas are the single definition of each method, so a method
 * added to the table is typed here with no edit. Imported as types only: none of the node's code enters a bundle.
 */
import type { RpcMethodParams, RpcMethodResult } from '../../../src/rpc/method.ts';
import type { RpcMethodTable } from '../../../src/rpc/method-table.ts';
import type { SubscriptionTopic } from '../../../src/rpc/topics.ts';

type AnyTableMethod = RpcMethodTable[number];

/** A method the node serves, by its wire name (`get_block`, `send_raw_transaction`, …). */
export type MethodName = AnyTableMethod['name'];

type MethodNamed<N extends MethodName> = Extract<AnyTableMethod, { readonly name: N }>;

/** What a caller sends to method `N` (params with defaults may be left out). */
export type MethodParameters<N extends MethodName> = RpcMethodParams<MethodNamed<N>>;
/** What method `N` answers. The answer is not parsed in the client: the node's tests hold it to this type. */
export type MethodReturnType<N extends MethodName> = RpcMethodResult<MethodNamed<N>>;

/** The params argument of method `N`: optional when every param is. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- `{}`: a params object with no required field
export type MethodArgs<N extends MethodName> = {} extends MethodParameters<N> ? [params?: MethodParameters<N>] : [params: MethodParameters<N>];

export type { SubscriptionTopic };

/** The seed's payload fields of each topic (node-client-protocol.md "Events"); the node may add more. */
export interface TopicEvents {
  readonly new_blocks: MethodReturnType<'get_block'>;
  readonly block_confirmations: { readonly block_hash: string; readonly confirmations: number } & Open;
  readonly pending_transactions: { readonly hash: string; readonly from: string; readonly to: string; readonly amount: number } & Open;
  readonly confirmed_transactions: { readonly hash: string; readonly block_height: number; readonly confirmations: number } & Open;
  readonly address_transactions: { readonly address: string; readonly hash: string; readonly type: 'incoming' | 'outgoing' } & Open;
  readonly mining_events: { readonly type: 'block_found' | 'difficulty_adjustment' | 'mining_reward' } & Open;
  readonly network_stats: Open;
  readonly contract_events: { readonly hash: string; readonly index: number } & Open;
}

type Open = { readonly [field: string]: unknown };

/** Topics whose subscription takes an `address` filter (required for address_transactions, optional for contract_events). */
export interface SubscribeOptions {
  readonly address?: string;
}
