/**
 * One pass of the follower, once per accepted chain block: each followed task's escrow is read, a completed task's
 * claim goes out once the dispute window has passed, and whatever changed in the anchor is stored and sent.
 */
import { escrowStatusName, EscrowStatus } from '../../kinds/escrow/escrow-record.ts';
import type { TaskAnchor } from '../settlement.ts';
import type { JsonObject } from '../types.ts';
import type { FollowerState, Watched } from './state.ts';

/** Runs a pass after the one in progress (a tick asked for during a pass runs once after it). */
export function tickFollower(state: FollowerState): Promise<void> {
  const prior = state.running ?? Promise.resolve();
  const next = prior.then(() => passOnce(state));
  state.running = next;
  void next.then(() => {
    if (state.running === next) state.running = undefined;
  });
  return next;
}

async function passOnce(state: FollowerState): Promise<void> {
  for (const [taskId, w] of [...state.watched]) {
    try {
      await step(state, taskId, w);
    } catch (error) {
      state.ports.onError?.(error);
    }
  }
}

/** One task: the anchor after what the chain did (and the claim this step sent), sent when it changed. */
async function step(state: FollowerState, taskId: string, w: Watched): Promise<void> {
  const { record, daaScore } = state.ports.readEscrow(w.escrowId);
  if (record === null) {
    state.watched.delete(taskId);
    return;
  }
  let next: TaskAnchor = { ...w.anchor, settlement_status: escrowStatusName(record.status) };
  if (record.status === EscrowStatus.Claimed) {
    if (w.completed) next = { ...next, claim: { ...w.anchor.claim, status: 'confirmed' } };
    state.watched.delete(taskId);
  } else if (record.status === EscrowStatus.Refunded) {
    state.watched.delete(taskId);
  } else if (record.status === EscrowStatus.EscrowLocked && w.completed) {
    // The next block's DAA score is at least this one past the state read: claim once the window has passed then.
    const claimable = BigInt(daaScore + 1) >= record.createdDaaScore + record.disputeWindow && BigInt(daaScore + 1) < record.timeoutDaaScore;
    next = await claimStep(state, w, next, claimable);
  }
  if (JSON.stringify(next) !== JSON.stringify(w.anchor)) {
    w.anchor = next;
    await state.ports.annotate(taskId, { taskAnchor: { ...next } as unknown as JsonObject });
  }
}

/** A locked escrow of a completed task: submit the claim when it can go and none is pending; else note it waits. */
async function claimStep(state: FollowerState, w: Watched, next: TaskAnchor, claimable: boolean): Promise<TaskAnchor> {
  const claim = w.anchor.claim;
  const pendingHash = claim?.status === 'pending' ? claim.transaction : undefined;
  const stillPending = pendingHash !== undefined && ['pending', 'confirmed', 'final'].includes(state.ports.transactionStatus(pendingHash) ?? 'dropped');
  if (!stillPending && claimable) {
    try {
      return { ...next, claim: { status: 'pending', transaction: await state.ports.submitClaim(w.escrowId) } };
    } catch (error) {
      const reason = ((error as { details?: { rule?: unknown } }).details?.rule ?? (error as Error).message) as string;
      return { ...next, claim: { status: 'refused', reason: String(reason) } };
    }
  }
  if (!stillPending && claim?.status === 'pending') return { ...next, claim: { status: 'waiting' } };
  return next;
}
