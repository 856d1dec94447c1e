/**
 * After a settled task ends (docs/a2a.md "On-chain settlement"): the agent's node claims the escrow of a completed
 * task and follows the escrow on chain, so the task anchor's `settlement_status` is the chain's and its `claim` says
 * where the node's own claim stands. A failed or cancelled task submits nothing — the client may reclaim after the
 * timeout, and the anchor follows that too (`Refunded`).
 *
 *   claim.status  waiting    the task completed; the claim goes out once the dispute window has passed
 *                 pending    the claim transaction is in the mempool or a block, not yet accepted
 *                 confirmed  the escrow is Claimed on chain (the claim's transaction, or the arbiter's resolve)
 *                 refused    the node could not submit the claim (`reason`: the chain's reason); retried each block
 *
 * Each change is stored in the task's metadata and sent as a status update to its streams and webhooks (the task
 * runner's `annotate`). The follower is driven by `tick()`, once per accepted chain block; the node's state is read
 * through ports, so it is pure over them. The set of followed tasks is the task store's (settlement-index.ts): a
 * restarted node `resume`s each, so its anchor keeps following the chain and a pending claim reaches confirmation.
 */
import { escrowStatusName, EscrowStatus } from '../kinds/escrow/escrow-record.ts';
import { fromHex } from '../util/bytes.ts';
import type { EscrowSnapshot, TaskAnchor } from './settlement.ts';
import { followsChain, taskAnchorOf } from './settlement-index.ts';
import type { JsonObject, Task } from './types.ts';

export type ClaimStatus = 'waiting' | 'pending' | 'confirmed' | 'refused';

export interface SettlementFollowerPorts {
  readonly readEscrow: (escrowId: Uint8Array) => EscrowSnapshot;
  /** Submits the agent's claim (signed by the node wallet with the configured key); the transaction hash, or throws. */
  readonly submitClaim: (escrowId: Uint8Array) => Promise<string>;
  /** Where a submitted transaction stands: undefined when the node no longer knows it (dropped). */
  readonly transactionStatus: (hash: string) => 'pending' | 'confirmed' | 'final' | 'dropped' | undefined;
  /** Stores `metadata` into the task and tells its clients (TaskRunner.annotate). */
  readonly annotate: (taskId: string, metadata: JsonObject) => Promise<unknown>;
  readonly onError?: (error: unknown) => void;
}

interface Watched {
  anchor: TaskAnchor;
  readonly escrowId: Uint8Array;
  /** The task completed: the node claims. */
  readonly completed: boolean;
}

export interface SettlementFollower {
  /** The terminal hook of the task runner: the anchor as the final status update carries it. */
  onTerminal(task: Task): JsonObject | undefined;
  /**
   * Follows again a finished task stored before a restart (the task store's `followed()`), from its anchor as stored:
   * a pending claim is checked against the node's transactions, a dropped one submitted again.
   */
  resume(task: Task): void;
  /** One step for every followed task: claims what can be claimed, reports what the chain did. */
  tick(): Promise<void>;
  /** Tasks still followed. */
  readonly size: number;
}

export function createSettlementFollower(ports: SettlementFollowerPorts): SettlementFollower {
  const watched = new Map<string, Watched>();
  let running: Promise<void> | undefined;

  async function step(taskId: string, w: Watched): Promise<void> {
    const { record, daaScore } = ports.readEscrow(w.escrowId);
    if (record === null) {
      watched.delete(taskId);
      return;
    }
    const claim = w.anchor.claim;
    let next: TaskAnchor = { ...w.anchor, settlement_status: escrowStatusName(record.status) };
    if (record.status === EscrowStatus.Claimed) {
      if (w.completed) next = { ...next, claim: { ...claim, status: 'confirmed' } };
      watched.delete(taskId);
    } else if (record.status === EscrowStatus.Refunded) {
      watched.delete(taskId);
    } else if (record.status === EscrowStatus.EscrowLocked && w.completed) {
      const pendingHash = claim?.status === 'pending' ? claim.transaction : undefined;
      const stillPending = pendingHash !== undefined && ['pending', 'confirmed', 'final'].includes(ports.transactionStatus(pendingHash) ?? 'dropped');
      // The next block's DAA score is at least this one past the state read: claim once the window has passed then.
      const claimable = BigInt(daaScore + 1) >= record.createdDaaScore + record.disputeWindow && BigInt(daaScore + 1) < record.timeoutDaaScore;
      if (!stillPending && claimable) {
        try {
          next = { ...next, claim: { status: 'pending', transaction: await ports.submitClaim(w.escrowId) } };
        } catch (error) {
          const reason = ((error as { details?: { rule?: unknown } }).details?.rule ?? (error as Error).message) as string;
          next = { ...next, claim: { status: 'refused', reason: String(reason) } };
        }
      } else if (!stillPending && claim?.status === 'pending') {
        next = { ...next, claim: { status: 'waiting' } };
      }
    }
    if (JSON.stringify(next) !== JSON.stringify(w.anchor)) {
      w.anchor = next;
      await ports.annotate(taskId, { taskAnchor: { ...next } as unknown as JsonObject });
    }
  }

  async function tickOnce(): Promise<void> {
    for (const [taskId, w] of [...watched]) {
      try {
        await step(taskId, w);
      } catch (error) {
        ports.onError?.(error);
      }
    }
  }

  const follower: SettlementFollower = {
    onTerminal(task) {
      const anchor = taskAnchorOf(task);
      if (anchor === undefined) return undefined;
      const completed = task.status.state === 'TASK_STATE_COMPLETED';
      const next: TaskAnchor = completed ? { ...anchor, claim: { status: 'waiting' } } : anchor;
      watched.set(task.id, { anchor: next, escrowId: fromHex(anchor.escrow_id.slice(2)), completed });
      // After the terminal state is stored (the runner's queue runs annotate after it).
      queueMicrotask(() => void follower.tick());
      return completed ? { taskAnchor: { ...next } as unknown as JsonObject } : undefined;
    },
    resume(task) {
      const anchor = taskAnchorOf(task);
      if (anchor === undefined || !followsChain(task) || watched.has(task.id)) return;
      const completed = task.status.state === 'TASK_STATE_COMPLETED';
      // A completed task stored by a process that never followed it (recover() marks only unfinished ones failed).
      const next: TaskAnchor = completed && anchor.claim === undefined ? { ...anchor, claim: { status: 'waiting' } } : anchor;
      watched.set(task.id, { anchor: next, escrowId: fromHex(anchor.escrow_id.slice(2)), completed });
    },
    tick() {
      // One pass at a time; a tick asked for during a pass runs once after it.
      const prior = running ?? Promise.resolve();
      const next = prior.then(tickOnce);
      running = next;
      void next.then(() => {
        if (running === next) running = undefined;
      });
      return next;
    },
    get size() {
      return watched.size;
    },
  };
  return follower;
}
