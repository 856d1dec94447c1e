/**
 * Kind 0x24, agent freeze: the owner freezes (frozen = 1) or unfreezes (0) its agent account (docs/settlement.md
 * "Freezing"). While frozen, nothing any key of the account signs is accepted — the owner's unfreeze excepted, the
 * one way out. Owner only.
 *
 *   payload = frozen u8
 */
import { TxKind } from '../../codec/transaction-kinds.ts';
import { mustReadAgent, writeAgent } from './agent-state.ts';
import { defineAgentKind, readFlag } from './envelope.ts';

export interface AgentFreezePayload {
  readonly frozen: boolean;
}

export const agentFreezeKind = defineAgentKind<typeof TxKind.AgentFreeze, AgentFreezePayload>({
  tag: TxKind.AgentFreeze,
  name: 'agent_freeze',
  controllerMay: false,
  allowedWhileFrozen: (tx) => !tx.payload.frozen,
  payload: {
    bytes: () => 1,
    write: (w, p) => w.u8(p.frozen ? 1 : 0),
    read: (r) => ({ frozen: readFlag(r, 'frozen') }),
  },
  amount: () => 0n,
  check(_state, tx, { agent }) {
    if (agent === undefined) return 'agent_unknown';
    if (agent.frozen === tx.payload.frozen) return tx.payload.frozen ? 'agent_frozen' : 'agent_not_frozen';
    return undefined;
  },
  apply(state, tx) {
    writeAgent(state, tx.payer, { ...mustReadAgent(state, tx.payer), frozen: tx.payload.frozen });
  },
  counterparty: (tx) => tx.payer,
  view: (p) => ({ frozen: p.frozen }),
});
