/**
 * How gRPC names map onto the method table: an RPC is its JSON-RPC method in PascalCase (GetBlock ↔ get_block), and
 * the methods that need a connection for their notifications are the one server stream `Subscribe` instead.
 */

/** get_agent_account → GetAgentAccount. */
export const pascalCase = (method: string): string => method.split('_').map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('');

/** GetAgentAccount → get_agent_account: how the server finds the method of an RPC. */
export const snakeCase = (rpc: string): string => rpc.replace(/[A-Z]/g, (c, i: number) => (i === 0 ? '' : '_') + c.toLowerCase());

/** Table methods served over gRPC by the `Subscribe` stream (cancelling the stream unsubscribes), not as unary RPCs. */
export const streamedMethods: ReadonlySet<string> = new Set(['subscribe', 'unsubscribe']);
