/** Reading and writing agent account records through the state view acceptance hands a kind (namespace `agent`). */
import { assert } from '../../errors.ts';
import type { TxStateView } from '../kind.ts';
import { decodeAgentRecord, encodeAgentRecord, type AgentRecord } from './agent-record.ts';

/** The agent account at `address`, or undefined when the address is no agent account. */
export function readAgent(state: TxStateView, address: Uint8Array): AgentRecord | undefined {
  const value = state.record('agent', address);
  return value === undefined ? undefined : decodeAgentRecord(value);
}

export function writeAgent(state: TxStateView, address: Uint8Array, record: AgentRecord): void {
  state.setRecord('agent', address, encodeAgentRecord(record));
}

/** The agent record at `address`, which `checkContext` proved exists (apply runs only after it). */
export function mustReadAgent(state: TxStateView, address: Uint8Array): AgentRecord {
  const record = readAgent(state, address);
  assert(record !== undefined, 'agent record vanished between checkContext and apply');
  return record;
}
