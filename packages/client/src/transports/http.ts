/**
 * JSON-RPC over HTTP (`POST {url}/api/v1/rpc`): the only transport that can send credentials such as `X-API-Key`
 * (a browser WebSocket cannot set headers). `fetch` is injected for runtimes or tests that bring their own.
 */
import { readBoundedJson } from '../bounded-json.ts';
import { rpcCallError } from '../errors.ts';
import type { RpcReply, Transport } from '../transport.ts';

export interface HttpTransportOptions {
  /** Sent as `X-API-Key` (docs/auth.md): unlocks the methods that need a scope. */
  readonly apiKey?: string;
  readonly fetch?: typeof fetch;
}

/** `url`: the node's HTTP base, e.g. http://127.0.0.1:8080 (no trailing slash needed). */
export function http(url: string, options: HttpTransportOptions = {}): Transport {
  const endpoint = `${url.replace(/\/+$/, '')}/api/v1/rpc`;
  return {
    async request(method: string, params: Record<string, unknown> = {}): Promise<unknown> {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (options.apiKey) headers['x-api-key'] = options.apiKey;
      const doFetch = options.fetch ?? fetch;
      const response = await doFetch(endpoint, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', method, params, id: 1 }) });
      const reply = (await readBoundedJson(response, method)) as RpcReply;
      if (reply.error) throw rpcCallError(method, reply.error.code, reply.error.message, reply.error.data);
      return reply.result;
    },
  };
}
