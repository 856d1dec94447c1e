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
 *
 * The state is `FollowerState` (follower/state.ts, with the ports); follower/watch.ts starts following a task,
 * follower/tick.ts runs a pass. This file wires them.
 */
import { tickFollower } from './follower/tick.ts';
import { resumeTask, watchTerminal } from './follower/watch.ts';
import type { FollowerState, SettlementFollowerPorts } from './follower/state.ts';
import type { JsonObject, Task } from './types.ts';

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
  const state: FollowerState = { ports, watched: new Map(), running: undefined };
  return {
    onTerminal: (task) => watchTerminal(state, task),
    resume: (task) => resumeTask(state, task),
    tick: () => tickFollower(state),
    get size() {
      return state.watched.size;
    },
  };
}
