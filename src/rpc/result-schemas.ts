/**
 * Zod schemas of the shared result objects (docs/api.md "Common shapes", "Typed results"). One schema gives three
 * things: the type a method's `run` must return (z.input), the type a client gets (z.output: the actions of
 * packages/client, which the web app uses), and the JSON Schema rpc.discover (openrpc.ts) and the REST OpenAPI document show
 * (`resultJsonSchema`). Results are never parsed on the serving path: the wire answer is what `run` returned;
 * test/integration/rpc/rpc-result-schemas.test.ts parses real answers and every example with these schemas instead.
 *
 * Imports zod only (and types), so the browser may import it; the web imports only its types.
 *
 * A result may carry fields its schema does not name (a transaction kind registered outside src/ shows its own view
 * fields, src/kinds `view`); clients ignore what they do not know. The transaction schemas name every field of the
 * kinds src/ registers: value transfers (every seed field), contracts, agent accounts, escrows and confidential
 * transactions.
 */
import { z } from 'zod';
import type { JsonSchema } from './method.ts';

// --- Leaves -------------------------------------------------------------------------------------------------

/** 0x + 64 lowercase hex. */
export const hashResult = z.string().regex(/^0x[0-9a-f]{64}$/);
/** bech32m with the network prefix. */
export const addressResult = z.string().describe('bech32m address');
/** Coins as a JSON number (≤ 8 decimals); its `_exact` companion is exact. */
export const coinsResult = z.number().describe('coins');
/** The exact decimal string beside a u64 quantity (docs/api.md "Exact integers"). */
export const exactResult = z.string().regex(/^\d+(\.\d+)?$/).describe('exact decimal string of the field without _exact');
/**
 * A u64 sent as a JSON number: exact below 2^53, rounded past it by a double-based JSON.parse (read the `_exact`
 * companion). An integer, but not a safe one, so not z.int().
 */
export const u64NumberResult = z.number().refine(Number.isInteger, 'an integer').meta({ type: 'integer' });
/**
 * A u64 printed as an exact JSON integer of any size (a block's `nonce`, src/rpc/json.ts): a bigint on the server,
 * a number once a plain JSON.parse read it.
 */
const u64Result = z
  .custom<bigint | number>((v) => typeof v === 'bigint' || (typeof v === 'number' && Number.isInteger(v)), 'a u64 integer')
  .meta({ type: 'integer', description: 'u64, printed exactly (may exceed 2^53)' });
export const transactionStatusResult = z.enum(['pending', 'confirmed', 'final', 'dropped']);

/**
 * A string from a fixed set that `run` writes as a bare literal (`status: 'accepted'`): TypeScript widens such a
 * literal to `string` while it infers defineMethod's types, so the type is `string`; the JSON Schema and a parse
 * still name the set.
 */
export function stringOf<const T extends readonly string[]>(values: T) {
  return z
    .string()
    .refine((v) => values.includes(v), `one of ${values.join(', ')}`)
    .meta({ enum: [...values] });
}

/**
 * A result built by code whose type says only `Record<string, unknown>` (views assembled from kind modules, the
 * mining port): `run` may return any record (the input side), and what the wire carries is `shape` (the output
 * side). The compiler cannot check such a producer; test/integration/rpc/rpc-result-schemas.test.ts checks its real answers.
 */
export function recordResult<T extends z.ZodObject>(shape: T) {
  return z.record(z.string(), z.unknown()).pipe(shape);
}

// --- Transactions and blocks --------------------------------------------------------------------------------

/** Lowercase hex without 0x (keys and ids inside kind views). */
const hexResult = z.string().regex(/^[0-9a-f]*$/);
/** A u64 written as a decimal string (DAA scores, counters in kind views). */
const decimalResult = z.string().regex(/^\d+$/);

/** Agent-account kinds (src/kinds/agent/, docs/settlement.md): who signed for the payer, and each kind's payload. */
const agentFields = {
  signer_role: stringOf(['key', 'controller', 'session_key'] as const).optional().describe("signerRoleNames (src/kinds/agent/envelope.ts): the payer's own key, its controller or a session key"),
  signer: hexResult.optional().describe('the x-only key that signed'),
  session_key_id: decimalResult.optional(),
  controller: hexResult.optional(),
  identity_proof_hash: hexResult.optional(),
  public_key: hexResult.optional().describe('add_session_key: the session key'),
  allowed_kinds: z.int().optional().describe('add_session_key: bit set of the kinds the key may sign'),
  tx_cap_exact: decimalResult.optional(),
  total_cap_exact: decimalResult.optional(),
  expiry_daa_score: decimalResult.optional(),
  revoked_session_key_id: decimalResult.optional(),
  frozen: z.boolean().optional(),
  agent: addressResult.optional(),
  pooled_exact: exactResult.optional(),
};

/** Escrow kinds (src/kinds/escrow/, docs/settlement.md). */
const escrowFields = {
  task_hash: hexResult.optional(),
  timeout_daa_score: decimalResult.optional(),
  dispute_window: decimalResult.optional(),
  arbiter: addressResult.optional(),
  escrow_id: hexResult.optional(),
  with_receipt: z.boolean().optional(),
  agent_share_exact: exactResult.optional(),
};

/** Confidential kinds (src/kinds/confidential/, docs/privacy.md): only what is public. */
const confidentialFields = {
  tx_public_key: hexResult.optional(),
  ring_size: z.int().optional(),
  inputs: z.array(z.object({ ring: z.array(hexResult), key_image: hexResult, pseudo_out: hexResult })).optional(),
  outputs: z
    .array(z.object({ one_time_key: hexResult, view_tag: z.int(), amount_exact: exactResult.optional(), commitment: hexResult.optional(), encrypted_amount: hexResult.optional() }))
    .optional(),
};

/** A transaction as it sits in a block (src/kinds/json-view.ts `transactionFields`). */
const blockTransactionResult = z.object({
  hash: hashResult,
  kind: z.string(),
  // What a privacy level hides is absent (docs/api.md "Privacy levels"): no `from` for ring inputs, no `amount`
  // when hidden, no `to` for a confidential transfer.
  from: addressResult.optional(),
  to: addressResult.optional(),
  amount: coinsResult.optional(),
  amount_exact: exactResult.optional(),
  fee: coinsResult,
  fee_exact: exactResult,
  // A ring spend has none: its key images stand in for a nonce, and it pays no energy (docs/privacy.md).
  nonce: u64NumberResult.optional(),
  nonce_exact: exactResult.optional(),
  use_energy: z.boolean().optional(),
  privacy_level: z.string(),
  // Contract kinds (docs/contracts.md "Transactions"): `to` is the contract, `fee` what it paid once accepted
  // (gas_used × gas_price), before that the most gas can cost (`max_fee`, gas_limit × gas_price).
  contract_address: addressResult.optional(),
  max_fee: coinsResult.optional(),
  max_fee_exact: exactResult.optional(),
  gas_limit: u64NumberResult.optional(),
  gas_used: u64NumberResult.optional().describe('intrinsic + VM gas, once accepted'),
  gas_price: coinsResult.optional().describe('coins per gas'),
  gas_price_exact: exactResult.optional(),
  gas_price_units: z.string().regex(/^\d+$/).optional().describe('base units per gas'),
  method: z.string().optional(),
  parameters: z.string().optional().describe('0x-hex tagged parameters'),
  code_hash: hashResult.optional(),
  code_size: z.int().optional(),
  vm_version: z.int().optional(),
  constructor_params: z.string().optional().describe('0x-hex tagged constructor parameters'),
  ...agentFields,
  ...escrowFields,
  ...confidentialFields,
});

/** docs/api.md "Transaction": the transaction's fields plus where it sits and how settled it is (views.ts). */
export const transactionResult = blockTransactionResult.extend({
  block_height: z.int().nullable().describe('height of the carrying block; null while pending'),
  block_hash: hashResult.nullable(),
  confirmations: z.int(),
  timestamp: z.int().describe('Unix seconds: block time, or mempool admission while pending'),
  energy_used: u64NumberResult,
  energy_used_exact: exactResult,
  status: transactionStatusResult,
  accepting_block_hash: hashResult.nullable(),
  receipt: z
    .object({
      contract_address: addressResult,
      method: z.string(),
      status: z.enum(['ok', 'revert', 'out_of_gas', 'stack_exhausted', 'trap', 'no_entry', 'prepare_refused']),
      gas_used: u64NumberResult.describe('intrinsic + VM gas; the fee paid is this × gas_price'),
      events: z.array(z.object({ topic: z.string(), topic_text: z.string().nullable(), data: z.string() })),
      return_data: z.string(),
      return_value: z.array(z.object({ type: z.string(), value: z.union([z.string(), z.boolean()]) })).nullable(),
      revert_message: z.string().nullable(),
    })
    .optional()
    .describe('contract transactions once accepted (node-local, not consensus)'),
});

/** A history item: a transaction plus its direction for the address asked about. */
const historyItemResult = transactionResult.extend({ type: z.enum(['incoming', 'outgoing', 'self']) });

/** docs/api.md "Block". */
export const blockResult = z.object({
  height: z.int(),
  hash: hashResult,
  previous_hash: hashResult.nullable().describe('the selected parent; null for genesis'),
  timestamp: z.int().describe('Unix seconds'),
  difficulty: z.int(),
  nonce: u64Result,
  merkle_root: hashResult,
  transaction_count: z.int(),
  size: z.int().describe('encoded bytes'),
  miner: addressResult,
  gpu_mining: z.boolean(),
  parent_hashes: z.array(hashResult),
  blue_score: z.int(),
  blue_work: z.string().describe('0x-hex'),
  daa_score: z.int(),
  state_root: hashResult,
  bits: z.int(),
  timestamp_ms: z.int(),
  is_chain_block: z.boolean(),
  confirmations: z.int(),
  transactions: z.array(blockTransactionResult).optional().describe('only with include_transactions'),
});

// --- Accounts -----------------------------------------------------------------------------------------------

/** docs/api.md "get_balance": the owner view, or the public one with the state root and block it was read at. */
export const balanceResult = z.object({
  address: addressResult,
  balance: coinsResult,
  balance_exact: exactResult,
  pending_balance: coinsResult,
  pending_balance_exact: exactResult,
  energy: u64NumberResult,
  energy_exact: exactResult,
  nonce: u64NumberResult,
  nonce_exact: exactResult,
  privacy_view: stringOf(['owner', 'public', 'encrypted']),
  state_root: hashResult.optional().describe('public view only'),
  block_hash: hashResult.optional().describe('public view only'),
  confidential_balance: coinsResult.optional().describe('stealth address, owner view: the decrypted unspent outputs'),
  confidential_balance_exact: exactResult.optional(),
  confidential_outputs: z
    .array(
      z.object({
        one_time_key: hashResult,
        commitment: hashResult,
        amount_kind: stringOf(['hidden', 'public']),
        encrypted_amount: z.string().optional().describe('0x-hex, 8 bytes: only the view key opens it'),
        amount_exact: exactResult.optional().describe('owner view, or the public amount of a shield output'),
        mature: z.boolean(),
        tx_hash: hashResult,
      }),
    )
    .optional()
    .describe('stealth address, owner and encrypted views'),
});

export const historyResult = z.object({
  address: addressResult,
  total: z.int().nullable().describe('null when the index cannot count'),
  limit: z.int(),
  offset: z.int(),
  transactions: z.array(recordResult(historyItemResult)),
});

// --- Mining (src/mining/control.ts, docs/mining.md) ------------------------------------------------------------

/** src/mining/hash-rate.ts `hashRateView`. */
const hashRateResult = z.object({
  hashes_per_second: z.number(),
  display: z.string(),
  source: z.enum(['measured', 'estimated']),
  window_seconds: z.int(),
});

const blockCountsResult = z.object({ total: z.int(), gpu: z.int(), cpu: z.int() });

export const miningInfoResult = z.object({
  running: z.boolean(),
  miner_address: addressResult.nullable(),
  reward_address: addressResult.nullable().describe('where mining without a miner_address pays; null when the wallet cannot tell (locked)'),
  threads: z.int(),
  gpu_mining: z.boolean(),
  gpu_devices: z.array(z.int()),
  backends: z.array(
    z.object({
      name: z.string(),
      kind: z.enum(['cpu', 'gpu']),
      threads: z.int().optional().describe('cpu backends'),
      device_index: z.int().optional().describe('gpu backends'),
      adapter: z.string().optional().describe('gpu backends'),
      hashes: z.number(),
      blocks_submitted: z.int(),
      hash_rate: hashRateResult,
    }),
  ),
  hash_rate: z.string(),
  local_hash_rate: hashRateResult,
  network_hash_rate: hashRateResult,
  difficulty: z.int(),
  height: z.int(),
  blocks_found: blockCountsResult,
  template_age_ms: z.number().nullable(),
  started_at: z.int().nullable().describe('Unix seconds'),
});

export const stopMiningResult = miningInfoResult.extend({ stopped: z.boolean() });

export const miningStatsResult = z.object({
  period: z.enum(['1h', '24h', '7d', '30d']),
  from: z.int().describe('Unix seconds'),
  to: z.int().describe('Unix seconds'),
  blocks: blockCountsResult,
  blocks_found: blockCountsResult,
  gpu_mining_ratio: z.number(),
  active_miners: z.int(),
  average_block_time_seconds: z.number().nullable(),
  difficulty: z.object({ current: z.int(), average: z.int().nullable(), min: z.int().nullable(), max: z.int().nullable() }),
  network_hash_rate: hashRateResult,
  local_hash_rate: hashRateResult,
  hash_rate_split: z.object({ gpu: hashRateResult, cpu: hashRateResult }),
  rewards: z.object({ total: coinsResult.nullable(), blocks: z.int(), source: z.string() }),
  miner_addresses: z.array(addressResult),
  hash_rate_series: z.array(
    z.object({
      timestamp: z.int(),
      blocks: z.int(),
      gpu_blocks: z.int(),
      found: z.int(),
      network_hashes_per_second: z.number(),
      local_hashes_per_second: z.number(),
    }),
  ),
});

// --- JSON Schema ----------------------------------------------------------------------------------------------

/**
 * The JSON Schema of a result, for OpenRPC and OpenAPI: the output side (what the wire carries), without the
 * safe-integer bounds z.int() adds and without `additionalProperties: false` (results may carry more fields, see
 * above).
 */
export function resultJsonSchema(schema: z.ZodType): JsonSchema {
  const json: Record<string, unknown> = z.toJSONSchema(schema, {
    io: 'output',
    unrepresentable: 'any',
    override: ({ jsonSchema }) => {
      const j = jsonSchema as Record<string, unknown>;
      if (j.additionalProperties === false) delete j.additionalProperties;
      if (j.readOnly === true) delete j.readOnly;
      if (j.type === 'integer' && j.minimum === Number.MIN_SAFE_INTEGER && j.maximum === Number.MAX_SAFE_INTEGER) {
        delete j.minimum;
        delete j.maximum;
      }
    },
  });
  delete json.$schema;
  return json;
}

// The REST OpenAPI document (server/http/openapi.ts) describes its bodies with these.
export const blockSchema: JsonSchema = resultJsonSchema(blockResult);
export const transactionSchema: JsonSchema = resultJsonSchema(transactionResult);
export const balanceSchema: JsonSchema = resultJsonSchema(balanceResult);
export const historySchema: JsonSchema = resultJsonSchema(historyResult);
