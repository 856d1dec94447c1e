/**
 * The OpenRPC 1.3 document `rpc.discover` returns, generated from the method table: params from each zod schema
 * (z.toJSONSchema, input side so defaults show as optional), results from each method's zod result schema (output
 * side: what the wire carries, result-schemas.ts `resultJsonSchema`).
 */
import { z } from 'zod';
import type { AnyRpcMethod } from './method.ts';
import { resultJsonSchema } from './result-schemas.ts';

export interface OpenRpcInfo {
  readonly version: string;
  readonly network: string;
}

function paramsOf(method: AnyRpcMethod): Record<string, unknown>[] {
  const schema = z.toJSONSchema(method.params, { io: 'input', unrepresentable: 'any' }) as {
    properties?: Record<string, Record<string, unknown>>;
    required?: string[];
  };
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).map(([name, prop]) => ({
    name,
    required: required.has(name),
    schema: prop,
  }));
}

export function buildOpenRpc(methods: readonly AnyRpcMethod[], info: OpenRpcInfo): Record<string, unknown> {
  return {
    openrpc: '1.3.2',
    info: {
      title: 'Weft node JSON-RPC',
      version: info.version,
      description: `JSON-RPC 2.0 API of a Weft ${info.network} node (docs/api.md). Params go by name (an object) or by position in the order listed.`,
    },
    methods: [
      ...methods.map((m) => ({
        name: m.name,
        summary: m.summary,
        paramStructure: 'either',
        params: paramsOf(m),
        result: { name: 'result', schema: resultJsonSchema(m.result) },
        'x-scope': m.scope,
        ...(m.example ? { examples: [{ name: `${m.name} example`, params: Object.entries(m.example.params).map(([name, value]) => ({ name, value })), result: { name: 'result', value: m.example.result } }] } : {}),
      })),
      {
        name: 'rpc.discover',
        summary: 'The OpenRPC description of this API.',
        params: [],
        result: { name: 'OpenRPC document', schema: { type: 'object' } },
      },
    ],
  };
}
