// JSON-RPC to a real node from the test process (docs/api.md): the result, or an Error naming the method and the
// node's error object. `url` is the node's HTTP base, with or without the trailing slash; `apiKey` for the methods
// that need a scope, public reads go without.
export async function nodeRpc<T>(url: string, method: string, params: Record<string, unknown> = {}, apiKey?: string): Promise<T> {
  const headers: Record<string, string> = { 'content-type': 'application/json', ...(apiKey === undefined ? {} : { 'x-api-key': apiKey }) };
  const endpoint = new URL('api/v1/rpc', url.endsWith('/') ? url : `${url}/`);
  const r = await fetch(endpoint, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', method, params, id: 1 }) });
  const body = (await r.json()) as { result?: T; error?: unknown };
  if (body.error !== undefined) throw new Error(`${method}: ${JSON.stringify(body.error)}`);
  return body.result as T;
}
