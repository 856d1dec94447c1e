/**
 * On-chain settlement at the A2A endpoint (docs/a2a.md "On-chain settlement"): a `SendMessage` whose
 * `params.metadata.chainSettlement` names an escrow is served only if the escrow, read from the node's own committed
 * state, can pay for the task — it exists, is `EscrowLocked`, locks coins for this node's agent account, holds at
 * least the task's cost, and leaves the agent time to claim before its timeout. Otherwise the request is refused with
 * -32104 ChainEscrowFailed and a `reason`, and no task is created. A served task carries a task anchor in its
 * metadata linking it to the escrow.
 *
 * Pure over a reader port: the node reads records with the ledger (server/a2a/node-a2a.ts), tests hand in records.
 */
import { decodeAddress, encodeAddress } from '../crypto/address.ts';
import { escrowIdBytes, escrowStatusName, EscrowStatus, type EscrowRecord, type EscrowStatusName } from '../kinds/escrow/escrow-record.ts';
import { equalBytes, fromHex, strip0x, toHex } from '../util/bytes.ts';
import { A2aError, invalidParams } from './errors.ts';

/** The one currency an escrow holds: the chain's coin, in base units. */
const settlementCurrency = 'WEFT';

/** What a client sends in `params.metadata.chainSettlement` (the seed's names). */
export interface ChainSettlementRequest {
  /** The most the client will pay, in base units. */
  readonly maxCost: bigint;
  readonly currency: string;
  /** The escrow id (32 bytes, `0x`-hex). */
  readonly escrowId: Uint8Array;
  /** The agent account the client means to pay. */
  readonly agentAccount: Uint8Array;
  /** Which skill the task is for (its `chainBaseCost` is the price); absent: the dearest skill. */
  readonly skillId?: string;
}

/** The escrow as the node's committed state has it, and the DAA score of that state. */
export interface EscrowSnapshot {
  readonly record: EscrowRecord | null;
  readonly daaScore: number;
}

export interface SettlementPolicy {
  /** This node's agent account: escrows must pay it. */
  readonly agentAccount: Uint8Array;
  readonly hrp: string;
  /** Each skill's `chainBaseCost`, base units. */
  readonly costs: ReadonlyMap<string, bigint>;
  /** DAA score the agent needs between accepting a task and its claim: an escrow timing out sooner is refused. */
  readonly claimMarginDaa: number;
  readonly readEscrow: (escrowId: Uint8Array) => EscrowSnapshot;
}

/** Links a task to its escrow (the seed's task anchor), in the task's `metadata.taskAnchor`. */
export interface TaskAnchor {
  /** The 32-byte escrow id, `0x`-hex (the seed's u64 cannot name a hash-derived id; docs/a2a.md "On-chain settlement"). */
  readonly escrow_id: string;
  readonly agent_account: string;
  /** The escrow's status on chain (the seed's settlement status), followed after the task ends. */
  readonly settlement_status: EscrowStatusName;
  /** The agent node's claim once the task completed (src/a2a/settlement-follower.ts). */
  readonly claim?: { readonly status: 'waiting' | 'pending' | 'confirmed' | 'refused'; readonly transaction?: string; readonly reason?: string };
}

export type SettlementRefusal =
  | 'settlement_not_offered'
  | 'currency_unsupported'
  | 'escrow_not_found'
  | 'escrow_not_locked'
  | 'escrow_wrong_agent'
  | 'cost_exceeds_max_cost'
  | 'escrow_too_small'
  | 'escrow_needs_receipt'
  | 'escrow_in_use'
  | 'escrow_timed_out';

export function settlementRefused(reason: SettlementRefusal, message: string): A2aError {
  return new A2aError('chain_escrow_failed', `chain settlement: ${message}`, { reason });
}

function field(object: Record<string, unknown>, name: string): unknown {
  return Object.hasOwn(object, name) ? object[name] : undefined;
}

/** The request in `metadata.chainSettlement`, or undefined when there is none; malformed fields are InvalidParams. */
export function parseChainSettlement(metadata: unknown, hrp: string): ChainSettlementRequest | undefined {
  if (typeof metadata !== 'object' || metadata === null) return undefined;
  const raw = field(metadata as Record<string, unknown>, 'chainSettlement');
  if (raw === undefined) return undefined;
  const at = (name: string) => `metadata.chainSettlement.${name}`;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw invalidParams(`${at('')}: expected an object`, 'metadata.chainSettlement');
  const o = raw as Record<string, unknown>;
  const maxCost = field(o, 'maxCost');
  const maxCostValue =
    typeof maxCost === 'number' && Number.isSafeInteger(maxCost) && maxCost >= 0 ? BigInt(maxCost)
    : typeof maxCost === 'string' && /^(0|[1-9][0-9]{0,19})$/.test(maxCost) ? BigInt(maxCost)
    : undefined;
  if (maxCostValue === undefined || maxCostValue >= 1n << 64n) throw invalidParams(`${at('maxCost')}: expected a non-negative integer of base units`, at('maxCost'));
  const currency = field(o, 'currency');
  if (typeof currency !== 'string' || currency === '') throw invalidParams(`${at('currency')}: expected a string`, at('currency'));
  const escrowHash = field(o, 'escrowHash');
  if (typeof escrowHash !== 'string' || !/^(0x)?[0-9a-fA-F]{64}$/.test(escrowHash)) {
    throw invalidParams(`${at('escrowHash')}: expected the ${escrowIdBytes}-byte escrow id as hex`, at('escrowHash'));
  }
  const account = field(o, 'agentAccount');
  let agentAccount: Uint8Array;
  try {
    if (typeof account !== 'string') throw new Error('not a string');
    agentAccount = decodeAddress(account, hrp);
  } catch {
    throw invalidParams(`${at('agentAccount')}: expected a ${hrp} address`, at('agentAccount'));
  }
  const skillId = field(o, 'skillId');
  if (skillId !== undefined && typeof skillId !== 'string') throw invalidParams(`${at('skillId')}: expected a skill id`, at('skillId'));
  return {
    maxCost: maxCostValue,
    currency,
    escrowId: fromHex(strip0x(escrowHash).toLowerCase()),
    agentAccount,
    ...(skillId === undefined ? {} : { skillId }),
  };
}

/** The price of a task: its skill's `chainBaseCost`, or the dearest skill's when the request names none. */
function costOf(policy: SettlementPolicy, skillId: string | undefined): bigint {
  if (skillId !== undefined) {
    const cost = policy.costs.get(skillId);
    if (cost === undefined) throw invalidParams(`metadata.chainSettlement.skillId: this agent has no skill ${skillId}`, 'metadata.chainSettlement.skillId');
    return cost;
  }
  let dearest = 0n;
  for (const cost of policy.costs.values()) if (cost > dearest) dearest = cost;
  return dearest;
}

/** Checks the escrow a request names against the node's state; returns the task's anchor or throws -32104. */
export function checkChainSettlement(request: ChainSettlementRequest, policy: SettlementPolicy | undefined): TaskAnchor {
  if (policy === undefined) throw settlementRefused('settlement_not_offered', 'this agent runs no agent account; send the task without chainSettlement');
  if (request.currency.toUpperCase() !== settlementCurrency) throw settlementRefused('currency_unsupported', `currency ${request.currency}: escrows hold ${settlementCurrency}`);
  const agent = encodeAddress(policy.hrp, policy.agentAccount);
  if (!equalBytes(request.agentAccount, policy.agentAccount)) {
    throw settlementRefused('escrow_wrong_agent', `agentAccount ${encodeAddress(policy.hrp, request.agentAccount)} is not this agent (${agent})`);
  }
  const cost = costOf(policy, request.skillId);
  if (cost > request.maxCost) throw settlementRefused('cost_exceeds_max_cost', `the task costs ${cost} base units, above maxCost ${request.maxCost}`);
  const { record, daaScore } = policy.readEscrow(request.escrowId);
  const id = `0x${toHex(request.escrowId)}`;
  if (record === null) throw settlementRefused('escrow_not_found', `no escrow ${id} in the committed state`);
  if (record.status !== EscrowStatus.EscrowLocked) throw settlementRefused('escrow_not_locked', `escrow ${id} is ${escrowStatusName(record.status)}, not EscrowLocked`);
  if (!equalBytes(record.agent, policy.agentAccount)) {
    throw settlementRefused('escrow_wrong_agent', `escrow ${id} pays ${encodeAddress(policy.hrp, record.agent)}, not this agent (${agent})`);
  }
  if (record.amount < cost) throw settlementRefused('escrow_too_small', `escrow ${id} holds ${record.amount} base units; the task costs ${cost}`);
  // The node claims without a receipt once the dispute window has passed (src/a2a/settlement-follower.ts): an escrow
  // with none could only be claimed with a receipt the client never has to give.
  if (record.disputeWindow === 0n) throw settlementRefused('escrow_needs_receipt', `escrow ${id} has no dispute window: the agent could claim it only with the client's receipt`);
  const windowEnds = record.createdDaaScore + record.disputeWindow;
  const claimBy = (windowEnds > BigInt(daaScore) ? windowEnds : BigInt(daaScore)) + BigInt(policy.claimMarginDaa);
  if (record.timeoutDaaScore <= claimBy) {
    throw settlementRefused('escrow_timed_out', `escrow ${id} times out at DAA score ${record.timeoutDaaScore}; the agent needs until ${claimBy} to claim`);
  }
  return { escrow_id: id, agent_account: agent, settlement_status: 'EscrowLocked' };
}
