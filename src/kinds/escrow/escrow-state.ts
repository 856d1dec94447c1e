/**
 * Reading and writing escrow records through the state view (namespace `escrow`), and the one settlement step every
 * way out of an escrow shares: coins to the agent and the client, the record's outcome, the agent's counters.
 */
import { assert } from '../../errors.ts';
import type { TxStateView } from '../kind.ts';
import type { AgentRecord } from '../agent/agent-record.ts';
import { readAgent, writeAgent } from '../agent/agent-state.ts';
import { decodeEscrowRecord, encodeEscrowRecord, EscrowStatus, type EscrowRecord } from './escrow-record.ts';

export function readEscrow(state: TxStateView, id: Uint8Array): EscrowRecord | undefined {
  const value = state.record('escrow', id);
  return value === undefined ? undefined : decodeEscrowRecord(value);
}

export function writeEscrow(state: TxStateView, id: Uint8Array, record: EscrowRecord): void {
  state.setRecord('escrow', id, encodeEscrowRecord(record));
}

/** The escrow `id`, which `checkContext` proved exists. */
export function mustReadEscrow(state: TxStateView, id: Uint8Array): EscrowRecord {
  const record = readEscrow(state, id);
  assert(record !== undefined, 'escrow record vanished between checkContext and apply');
  return record;
}

/** Which counter of the agent's reputation a settlement adds to (docs/settlement.md "Reputation"). */
export type SettlementOutcome = keyof Pick<AgentRecord, 'claimed' | 'refunded' | 'resolved'>;

/**
 * Releases an open escrow: `agentShare` to the agent account's balance, the rest to the client's, the status
 * Claimed when the agent got anything and Refunded when not, and one more settlement on the agent's counters.
 */
export function settleEscrow(state: TxStateView, id: Uint8Array, agentShare: bigint, outcome: SettlementOutcome): void {
  const escrow = mustReadEscrow(state, id);
  assert(agentShare <= escrow.amount, 'escrow settlement beyond its amount');
  if (agentShare > 0n) state.credit(escrow.agent, agentShare);
  if (escrow.amount - agentShare > 0n) state.credit(escrow.client, escrow.amount - agentShare);
  writeEscrow(state, id, {
    ...escrow,
    status: agentShare > 0n ? EscrowStatus.Claimed : EscrowStatus.Refunded,
    settledDaaScore: BigInt(state.daaScore),
    agentShare,
  });
  // An escrow's agent exists: creation checked it, and nothing deletes agent records.
  const agent = readAgent(state, escrow.agent);
  if (agent !== undefined) writeAgent(state, escrow.agent, { ...agent, [outcome]: agent[outcome] + 1n });
}
