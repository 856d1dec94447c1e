/** The OpenAPI 3.1 document of the REST API at /api/v1/openapi.json, built from the same result schemas as OpenRPC. */
import { balanceSchema, blockSchema, historySchema, transactionSchema } from '../../src/rpc/result-schemas.ts';

const errorSchema = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: { code: { type: 'integer' }, message: { type: 'string' }, data: {} },
    },
  },
};

const ok = (description: string, schema: unknown) => ({ description, content: { 'application/json': { schema } } });
const err = (description: string) => ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } });
const pathParam = (name: string, description: string) => ({ name, in: 'path', required: true, description, schema: { type: 'string' } });
const queryParam = (name: string, schema: unknown, description: string) => ({ name, in: 'query', required: false, description, schema });
const includeTxs = queryParam('include_transactions', { type: 'boolean', default: true }, 'include the transactions array');

const proofParam = queryParam('proof', { type: 'boolean', default: false }, 'add the state proof against the selected tip header');

export function buildOpenApi(version: string, network: string): Record<string, unknown> {
  return {
    openapi: '3.1.0',
    info: { title: 'Weft node REST API', version, description: `Read-only REST API of a Weft ${network} node (docs/api.md).` },
    paths: { ...chainPaths(), ...accountPaths() },
    components: { schemas: { Block: blockSchema, Transaction: transactionSchema, Error: errorSchema } },
  };
}

/** The network, block and transaction routes. */
function chainPaths(): Record<string, unknown> {
  const block = { $ref: '#/components/schemas/Block' };
  return {
    '/api/v1/network/info': {
      get: {
        summary: 'Network id, version, height, difficulty and supply',
        responses: {
          200: ok('REST network info', {
            type: 'object',
            required: ['network_id', 'version', 'block_height', 'difficulty', 'total_supply', 'circulating_supply'],
            properties: {
              network_id: { type: 'string' },
              version: { type: 'string' },
              block_height: { type: 'integer' },
              difficulty: { type: 'integer' },
              total_supply: { type: 'string', description: 'coins as an exact decimal string' },
              circulating_supply: { type: 'string' },
            },
          }),
          503: err('the ledger service is not configured'),
        },
      },
    },
    '/api/v1/blocks/latest': { get: { summary: 'The selected tip', parameters: [includeTxs], responses: { 200: ok('block', block) } } },
    '/api/v1/blocks/{id}': {
      get: {
        summary: 'A block by selected-chain height or by hash',
        parameters: [pathParam('id', 'a height (digits) or a 0x-prefixed 64-digit hash'), includeTxs],
        responses: { 200: ok('block', block), 400: err('neither a height nor a hash'), 404: err('-40004 Block not found') },
      },
    },
    '/api/v1/transactions/{hash}': {
      get: {
        summary: 'A transaction by hash',
        parameters: [pathParam('hash', '0x-prefixed 64-digit hash')],
        responses: { 200: ok('transaction', transactionSchema), 400: err('malformed hash'), 404: err('unknown transaction') },
      },
    },
  };
}

/** The address, agent and escrow routes, and the node's own. */
function accountPaths(): Record<string, unknown> {
  return {
    '/api/v1/addresses/{address}/balance': {
      get: {
        summary: "An address's balance",
        parameters: [pathParam('address', 'bech32m address')],
        responses: { 200: ok('address balance', { ...balanceSchema, properties: { ...(balanceSchema.properties as object) } }), 400: err('-40002 Invalid address') },
      },
    },
    '/api/v1/addresses/{address}/transactions': {
      get: {
        summary: "An address's transactions, newest first",
        parameters: [
          pathParam('address', 'bech32m address'),
          queryParam('limit', { type: 'integer', minimum: 1, maximum: 1000, default: 50 }, 'page size'),
          queryParam('offset', { type: 'integer', minimum: 0, default: 0 }, 'records to skip'),
          queryParam('include_pending', { type: 'boolean', default: false }, 'mempool transactions first'),
        ],
        responses: { 200: ok('page', historySchema), 400: err('bad address or paging') },
      },
    },
    '/api/v1/agents/{address}': {
      get: {
        summary: 'An agent account (docs/api.md get_agent_account)',
        parameters: [pathParam('address', 'bech32m address of the agent account'), proofParam],
        responses: { 200: ok('agent account', { type: 'object' }), 400: err('-40002 Invalid address') },
      },
    },
    '/api/v1/escrows/{id}': {
      get: {
        summary: 'A task escrow by id (docs/api.md get_escrow)',
        parameters: [pathParam('id', '0x-prefixed 64-digit escrow id'), proofParam],
        responses: { 200: ok('escrow', { type: 'object' }), 400: err('malformed id') },
      },
    },
    '/api/v1/stats': { get: { summary: 'Network and mining statistics (explorer)', responses: { 200: ok('statistics', { type: 'object' }) } } },
    '/health': { get: { summary: 'Liveness and readiness: sync state, peers, height', responses: { 200: ok('health', { type: 'object' }) } } },
  };
}
