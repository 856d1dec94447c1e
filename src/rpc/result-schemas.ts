/** JSON Schemas of the shared result objects (OpenRPC, OpenAPI and docs/api.md describe them from here). */
import type { JsonSchema } from './method.ts';

const hash = { type: 'string', pattern: '^0x[0-9a-f]{64}$' } as const;
const nullableHash = { type: ['string', 'null'], pattern: '^0x[0-9a-f]{64}$' } as const;

export const blockTransactionSchema: JsonSchema = {
  type: 'object',
  properties: {
    hash,
    kind: { type: 'string' },
    from: { type: 'string' },
    to: { type: 'string' },
    amount: { type: 'number' },
    fee: { type: 'number' },
    nonce: { type: 'integer' },
    use_energy: { type: 'boolean' },
    privacy_level: { type: 'string' },
  },
};

export const blockSchema: JsonSchema = {
  type: 'object',
  required: ['height', 'hash', 'previous_hash', 'timestamp', 'difficulty', 'nonce', 'merkle_root', 'transaction_count', 'size', 'miner', 'gpu_mining'],
  properties: {
    height: { type: 'integer' },
    hash,
    previous_hash: nullableHash,
    timestamp: { type: 'integer', description: 'Unix seconds' },
    difficulty: { type: 'integer' },
    nonce: { type: 'integer', description: 'u64, printed exactly (may exceed 2^53)' },
    merkle_root: hash,
    transaction_count: { type: 'integer' },
    size: { type: 'integer', description: 'encoded bytes' },
    miner: { type: 'string' },
    gpu_mining: { type: 'boolean' },
    parent_hashes: { type: 'array', items: hash },
    blue_score: { type: 'integer' },
    blue_work: { type: 'string' },
    daa_score: { type: 'integer' },
    state_root: hash,
    bits: { type: 'integer' },
    timestamp_ms: { type: 'integer' },
    is_chain_block: { type: 'boolean' },
    confirmations: { type: 'integer' },
    transactions: { type: 'array', items: blockTransactionSchema },
  },
};

export const transactionSchema: JsonSchema = {
  type: 'object',
  required: ['hash', 'from', 'to', 'amount', 'fee', 'block_height', 'block_hash', 'confirmations', 'timestamp', 'privacy_level', 'energy_used'],
  properties: {
    hash,
    from: { type: 'string' },
    to: { type: 'string' },
    amount: { type: 'number' },
    fee: { type: 'number' },
    block_height: { type: ['integer', 'null'] },
    block_hash: nullableHash,
    confirmations: { type: 'integer' },
    timestamp: { type: 'integer' },
    privacy_level: { type: 'string' },
    energy_used: { type: 'integer' },
    status: { enum: ['pending', 'confirmed', 'final', 'dropped'] },
    kind: { type: 'string' },
    nonce: { type: 'integer' },
    use_energy: { type: 'boolean' },
    accepting_block_hash: nullableHash,
    type: { enum: ['incoming', 'outgoing', 'self'] },
  },
};

export const balanceSchema: JsonSchema = {
  type: 'object',
  required: ['address', 'balance', 'pending_balance', 'energy', 'nonce'],
  properties: {
    address: { type: 'string' },
    balance: { type: 'number' },
    pending_balance: { type: 'number' },
    energy: { type: 'integer' },
    nonce: { type: 'integer' },
    privacy_view: { enum: ['owner', 'public'] },
    state_root: hash,
    block_hash: hash,
  },
};

export const historySchema: JsonSchema = {
  type: 'object',
  required: ['address', 'total', 'limit', 'offset', 'transactions'],
  properties: {
    address: { type: 'string' },
    total: { type: ['integer', 'null'], description: 'null when the index cannot count' },
    limit: { type: 'integer' },
    offset: { type: 'integer' },
    transactions: { type: 'array', items: transactionSchema },
  },
};

export const freeFormObject: JsonSchema = { type: 'object', additionalProperties: true };
