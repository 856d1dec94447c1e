/**
 * JSON views of the agent and escrow records (docs/settlement.md "Records") as get_agent_account and get_escrow
 * answer them: the seed's field names (`agent_account`, `controller`, `reputation_score_bps`, `settlement status`
 * names), coins as numbers with their `_exact` companions, DAA scores as integers, keys as 0x-hex. Each answer says
 * which header it was read from and, on request, carries the state proof a light client checks against that header.
 */
import { z } from 'zod';
import { txKindName } from '../../codec/transaction-kinds.ts';
import { encodeAddress } from '../../crypto/address.ts';
import { formatUnits } from '../../crypto/amount.ts';
import { reputationScoreBps, sessionScopeBit, type AgentRecord } from '../../kinds/agent/agent-record.ts';
import { escrowStatusName, type EscrowRecord } from '../../kinds/escrow/escrow-record.ts';
import type { StateNamespaceName } from '../../state/namespaces.ts';
import { proofToJson } from '../../state/proof.ts';
import { toHash0x, toHex } from '../../util/bytes.ts';
import { ServiceUnavailableError } from '../errors.ts';
import type { RpcCallContext } from '../method.ts';
import type { LedgerView } from '../ports.ts';
import { addressResult, coinsResult, exactResult, hashResult, u64NumberResult } from '../result-schemas.ts';
import { stateProofJsonResult } from '../methods/get-proof.ts';

const hex0x = (bytes: Uint8Array) => `0x${toHex(bytes)}`;
const coins = (units: bigint) => Number(formatUnits(units));
const daa = u64NumberResult;

/** Where an answer was read: the selected tip's header, whose state root the proof is against. */
export const provenAtResult = z.object({
  key: hashResult.describe('the trie key, BLAKE3(tag ‖ id)'),
  state_root: hashResult,
  block_hash: hashResult,
  block_height: z.int().nullable(),
  exists: z.boolean(),
  proof: stateProofJsonResult,
});

export interface ProvenRecord {
  /** The stored value (version byte first), as the proof proves it; undefined when absent. */
  readonly value: Uint8Array | undefined;
  /** The DAA score of the header the record was read from (expiries and timeouts are judged against it). */
  readonly daaScore: number;
  readonly blockHash: Uint8Array;
  readonly blockHeight: number | null;
  /** The `proof` field of the answer. */
  readonly proof: z.input<typeof provenAtResult>;
}

/**
 * Reads one record from the selected tip's committed state together with its proof: the value is taken out of the
 * proof itself, so the answer and the proof can never disagree.
 */
export function readProvenRecord(ctx: RpcCallContext, ledger: LedgerView, namespace: StateNamespaceName, id: Uint8Array, method: string): ProvenRecord {
  if (ledger.proveRecord === undefined) throw new ServiceUnavailableError('ledger (record proofs)', method);
  const p = ledger.proveRecord(namespace, id);
  const block = ctx.services.chain.get(toHex(p.blockHash));
  return {
    value: p.proof.kind === 'inclusion' ? p.proof.value : undefined,
    daaScore: block?.header.daaScore ?? 0,
    blockHash: p.blockHash,
    blockHeight: block?.height ?? null,
    proof: {
      key: toHash0x(p.key),
      state_root: toHash0x(p.stateRoot),
      block_hash: toHash0x(p.blockHash),
      block_height: block?.height ?? null,
      exists: p.exists,
      proof: proofToJson(p.proof),
    },
  };
}

const scopeNames = (bits: number) => [...sessionScopeBit].filter(([, bit]) => (bits & bit) !== 0).map(([kind]) => txKindName(kind)!);

const sessionKeyResult = z.object({
  id: u64NumberResult,
  public_key: z.string(),
  allowed_kinds: z.array(z.string()).describe('transaction kinds the key may sign'),
  allowed_kinds_bits: u64NumberResult,
  tx_cap: coinsResult,
  tx_cap_exact: exactResult,
  total_cap: coinsResult,
  total_cap_exact: exactResult,
  spent: coinsResult,
  spent_exact: exactResult,
  expiry_daa_score: daa,
  revoked: z.boolean(),
  expired: z.boolean().describe('the expiry is at or before the DAA score the record was read at'),
});

export const agentAccountResult = z.object({
  agent_account: addressResult,
  owner: z.string().describe('0x-hex x-only public key: full authority'),
  controller: z.string().describe('0x-hex x-only public key: day-to-day authority'),
  frozen: z.boolean(),
  energy_pool: coinsResult,
  energy_pool_exact: exactResult,
  reputation_score_bps: z.int().nullable().describe('null until an escrow of the agent settled'),
  claimed: u64NumberResult,
  refunded: u64NumberResult,
  resolved: u64NumberResult,
  identity_proof_hash: z.string().nullable(),
  next_session_key_id: u64NumberResult,
  session_keys: z.array(sessionKeyResult),
});

export function agentAccountView(agent: Uint8Array, record: AgentRecord, hrp: string, daaScore: number): z.input<typeof agentAccountResult> {
  const reputation = reputationScoreBps(record);
  return {
    agent_account: encodeAddress(hrp, agent),
    owner: hex0x(record.owner),
    controller: hex0x(record.controller),
    frozen: record.frozen,
    energy_pool: coins(record.energyPool),
    energy_pool_exact: formatUnits(record.energyPool),
    reputation_score_bps: reputation ?? null,
    claimed: Number(record.claimed),
    refunded: Number(record.refunded),
    resolved: Number(record.resolved),
    identity_proof_hash: record.identityProofHash === undefined ? null : hex0x(record.identityProofHash),
    next_session_key_id: Number(record.nextSessionKeyId),
    session_keys: record.sessionKeys.map((key) => ({
      id: Number(key.id),
      public_key: hex0x(key.publicKey),
      allowed_kinds: scopeNames(key.allowedKinds),
      allowed_kinds_bits: key.allowedKinds,
      tx_cap: coins(key.txCap),
      tx_cap_exact: formatUnits(key.txCap),
      total_cap: coins(key.totalCap),
      total_cap_exact: formatUnits(key.totalCap),
      spent: coins(key.spent),
      spent_exact: formatUnits(key.spent),
      expiry_daa_score: Number(key.expiryDaaScore),
      revoked: key.revoked,
      expired: key.expiryDaaScore <= BigInt(daaScore),
    })),
  };
}

export const escrowResult = z.object({
  escrow_id: hashResult,
  status: z.enum(['EscrowLocked', 'Claimed', 'Refunded', 'Disputed']),
  client: addressResult,
  agent_account: addressResult,
  task_hash: hashResult,
  amount: coinsResult,
  amount_exact: exactResult,
  arbiter: addressResult.nullable(),
  created_daa_score: daa,
  timeout_daa_score: daa,
  dispute_window: daa.describe('DAA steps after creation from which the agent may claim without a receipt; 0: never'),
  disputed_daa_score: daa,
  settled_daa_score: daa,
  agent_share: coinsResult,
  agent_share_exact: exactResult,
  timed_out: z.boolean().describe('the timeout is at or before the DAA score the record was read at'),
});

export function escrowView(id: Uint8Array, record: EscrowRecord, hrp: string, daaScore: number): z.input<typeof escrowResult> {
  return {
    escrow_id: toHash0x(id),
    status: escrowStatusName(record.status) as Exclude<ReturnType<typeof escrowStatusName>, 'None'>,
    client: encodeAddress(hrp, record.client),
    agent_account: encodeAddress(hrp, record.agent),
    task_hash: toHash0x(record.taskHash),
    amount: coins(record.amount),
    amount_exact: formatUnits(record.amount),
    arbiter: record.arbiter === undefined ? null : encodeAddress(hrp, record.arbiter),
    created_daa_score: Number(record.createdDaaScore),
    timeout_daa_score: Number(record.timeoutDaaScore),
    dispute_window: Number(record.disputeWindow),
    disputed_daa_score: Number(record.disputedDaaScore),
    settled_daa_score: Number(record.settledDaaScore),
    agent_share: coins(record.agentShare),
    agent_share_exact: formatUnits(record.agentShare),
    timed_out: record.timeoutDaaScore <= BigInt(daaScore),
  };
}
