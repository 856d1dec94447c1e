/**
 * On-chain settlement at the door (docs/a2a.md "On-chain settlement"): the metadata a new task is stored with, and
 * the rule that one escrow pays for one task — held in the state's set while a request is in flight, then by the
 * task store's escrow index.
 */
import { anonymousKeyMetadata } from '../anonymous.ts';
import { checkChainSettlement, parseChainSettlement, settlementRefused } from '../settlement.ts';
import { escrowIdBytes } from '../settlement-index.ts';
import type { Started } from '../runner/start.ts';
import type { JsonObject } from '../types.ts';
import type { HandlerState } from './state.ts';

const escrowInUse = (state: HandlerState, escrowId: string): boolean => state.escrowsInUse.has(escrowId) || state.store.taskOfEscrow(escrowIdBytes(escrowId)) !== undefined;

/**
 * The task's metadata: the request's, plus the task anchor when it names an escrow that can pay. Only the agent
 * writes `taskAnchor`: a client's would have the node follow, claim and hold an escrow nobody checked.
 */
export function settledMetadata(state: HandlerState, requested: JsonObject | undefined): JsonObject | undefined {
  let metadata = requested;
  if (metadata !== undefined && (Object.hasOwn(metadata, 'taskAnchor') || Object.hasOwn(metadata, anonymousKeyMetadata))) {
    const { taskAnchor: _ignored, [anonymousKeyMetadata]: _key, ...rest } = metadata;
    metadata = rest;
  }
  const policy = state.settlement;
  if (policy === undefined) {
    if (metadata !== undefined && Object.hasOwn(metadata, 'chainSettlement')) {
      throw settlementRefused('settlement_not_offered', 'this agent runs no agent account; send the task without chainSettlement');
    }
    return metadata;
  }
  const request = parseChainSettlement(metadata, policy.hrp);
  if (request === undefined) return metadata;
  const anchor = checkChainSettlement(request, policy);
  // One escrow pays for one task: a second task on it would be work the agent can never be paid for.
  if (escrowInUse(state, anchor.escrow_id)) throw settlementRefused('escrow_in_use', `escrow ${anchor.escrow_id} already pays for another task`);
  state.escrowsInUse.add(anchor.escrow_id);
  return { ...metadata, taskAnchor: { ...anchor } };
}

/** Once the task is stored, the store's index holds its escrow: the set keeps only requests in flight. */
export function releaseEscrowWhenStored(state: HandlerState, metadata: JsonObject | undefined, started: Started): void {
  const escrowId = (metadata?.taskAnchor as { escrow_id: string } | undefined)?.escrow_id;
  if (escrowId === undefined) return;
  void started.first.then(() => state.store.taskOfEscrow(escrowIdBytes(escrowId)) !== undefined && state.escrowsInUse.delete(escrowId), () => undefined);
}
