/**
 * What on-chain settlement must remember across a restart (docs/a2a.md "On-chain settlement"), kept beside the tasks
 * and written in the same atomic batch as each task (task-store.ts `put`), so the index never disagrees with them:
 *
 *   a e | escrowId (32 bytes) → taskId   the escrow anchors that task. Kept for good: one escrow pays for one task,
 *                                         and an escrow id (client and nonce) is never made twice.
 *   a f | taskId              → ''       a finished task whose anchor still follows the chain: the settlement
 *                                         follower's set (settlement-follower.ts), resumed when the node starts.
 *
 * A task follows the chain from its terminal state until its escrow is Claimed or Refunded (the follower's rule).
 */
import type { KvOp } from '../storage/kv.ts';
import { concatBytes, fromHex } from '../util/bytes.ts';
import type { TaskAnchor } from './settlement.ts';
import { isTerminal } from './state-machine.ts';
import type { Task } from './types.ts';

const enc = new TextEncoder();
const A = 0x61;
const E = 0x65;
const F = 0x66;

export const escrowTaskKey = (escrowId: Uint8Array): Uint8Array => concatBytes(Uint8Array.of(A, E), escrowId);
export const followedPrefix: Uint8Array = Uint8Array.of(A, F);
const followedKey = (taskId: string) => concatBytes(followedPrefix, enc.encode(taskId));

/** An anchor's `escrow_id` (`0x` and 64 hex digits) as the escrow id's bytes. */
export const escrowIdBytes = (escrowId: string): Uint8Array => fromHex(escrowId.slice(2));

/** The task's anchor in its metadata, when it has a well-formed one. */
export function taskAnchorOf(task: Task): TaskAnchor | undefined {
  const anchor = task.metadata?.taskAnchor as unknown;
  if (typeof anchor !== 'object' || anchor === null) return undefined;
  const { escrow_id } = anchor as Partial<TaskAnchor>;
  return typeof escrow_id === 'string' && /^0x[0-9a-f]{64}$/.test(escrow_id) ? (anchor as TaskAnchor) : undefined;
}

/** Finished, anchored, and its escrow neither Claimed nor Refunded: the follower still reads it on every block. */
export function followsChain(task: Task): boolean {
  const anchor = taskAnchorOf(task);
  return anchor !== undefined && isTerminal(task.status.state) && anchor.settlement_status !== 'Claimed' && anchor.settlement_status !== 'Refunded';
}

/** The index writes that go with storing `next` over `previous`. */
export function settlementIndexOps(previous: Task | undefined, next: Task): KvOp[] {
  const ops: KvOp[] = [];
  const anchor = taskAnchorOf(next);
  if (anchor !== undefined && (previous === undefined || taskAnchorOf(previous) === undefined)) {
    ops.push({ type: 'put', key: escrowTaskKey(escrowIdBytes(anchor.escrow_id)), value: enc.encode(next.id) });
  }
  if (followsChain(next)) ops.push({ type: 'put', key: followedKey(next.id), value: new Uint8Array(0) });
  else if (previous !== undefined && followsChain(previous)) ops.push({ type: 'del', key: followedKey(next.id) });
  return ops;
}
