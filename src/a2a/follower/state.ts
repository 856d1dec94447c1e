/**
 * The settlement follower's state (settlement-follower.ts wires it): its ports into the node, the finished settled
 * tasks it follows with their anchors as last sent, and the pass now running. The operations are free functions
 * over it: watch.ts (start following a task) and tick.ts (one pass over every followed task).
 */
import type { EscrowSnapshot, TaskAnchor } from '../settlement.ts';
import type { JsonObject } from '../types.ts';

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

export interface Watched {
  anchor: TaskAnchor;
  readonly escrowId: Uint8Array;
  /** The task completed: the node claims. */
  readonly completed: boolean;
}

export interface FollowerState {
  readonly ports: SettlementFollowerPorts;
  /** Followed tasks by id, until their escrow is Claimed, Refunded or gone. */
  readonly watched: Map<string, Watched>;
  /** The pass in progress (tick.ts), so passes never overlap. */
  running: Promise<void> | undefined;
}
