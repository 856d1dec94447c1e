/**
 * The A2A handler's state (handler.ts wires it): the task store, the card, the runner and stream hub the operations
 * share, and the escrows taken by requests still in flight. The operations are free functions over it, a file per
 * group (handler/*.ts).
 */
import type { Principal } from '../principal.ts';
import type { AgentCard } from '../card.ts';
import type { SettlementPolicy } from '../settlement.ts';
import type { StreamHub } from '../stream-hub.ts';
import type { TaskRunner } from '../task-runner.ts';
import type { TaskStore } from '../task-store.ts';

/** Who calls and with what: every binding parses its transport into this (and the operation's params). */
export interface CallContext {
  readonly principal: Principal;
  /** Extensions the client activated that the card declares (negotiate.ts). */
  readonly extensions: readonly string[];
}

export interface HandlerState {
  readonly store: TaskStore;
  readonly card: AgentCard;
  /** Served by GetExtendedAgentCard to authenticated callers when the card declares extendedAgentCard. */
  readonly extendedCard: AgentCard | undefined;
  /** Fresh ids for tasks, contexts, messages and push configs. */
  readonly newId: () => string;
  readonly runner: TaskRunner;
  readonly hub: StreamHub;
  /** Refuses webhook URLs the node must not call (the SSRF guard); throws InvalidParams. */
  readonly validatePushUrl: ((url: string) => Promise<void>) | undefined;
  /** On-chain settlement (settlement.ts); undefined: a request naming an escrow is refused. */
  readonly settlement: SettlementPolicy | undefined;
  /**
   * Escrows taken by a request whose task is not stored yet. Once stored, the task store's escrow index has it
   * (settlement-index.ts), which a restart keeps.
   */
  readonly escrowsInUse: Set<string>;
}
