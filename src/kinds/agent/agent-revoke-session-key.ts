/**
 * Kind 0x23, agent revoke session key: the owner or the controller ends a session key at once (docs/settlement.md
 * "Session keys"). The key stays in the record, marked revoked, until a full account drops it, so a transaction it
 * signs is refused as `session_key_revoked` rather than as unknown.
 *
 *   payload = session_key_id u64
 */
import { TxKind } from '../../codec/transaction-kinds.ts';
import { sessionKeyOf } from './agent-record.ts';
import { mustReadAgent, writeAgent } from './agent-state.ts';
import { defineAgentKind } from './envelope.ts';

export interface AgentRevokeSessionKeyPayload {
  readonly revokedKeyId: bigint;
}

export const agentRevokeSessionKeyKind = defineAgentKind<typeof TxKind.AgentRevokeSessionKey, AgentRevokeSessionKeyPayload>({
  tag: TxKind.AgentRevokeSessionKey,
  name: 'agent_revoke_session_key',
  controllerMay: true,
  payload: {
    bytes: () => 8,
    write: (w, p) => w.u64(p.revokedKeyId, 'revoked session_key_id'),
    read: (r) => ({ revokedKeyId: r.u64('transaction revoked session_key_id') }),
  },
  amount: () => 0n,
  check(_state, tx, { agent }) {
    if (agent === undefined) return 'agent_unknown';
    const key = sessionKeyOf(agent, tx.payload.revokedKeyId);
    if (key === undefined) return 'session_key_unknown';
    return key.revoked ? 'session_key_revoked' : undefined;
  },
  apply(state, tx) {
    const agent = mustReadAgent(state, tx.payer);
    const sessionKeys = agent.sessionKeys.map((key) => (key.id === tx.payload.revokedKeyId ? { ...key, revoked: true } : key));
    writeAgent(state, tx.payer, { ...agent, sessionKeys });
  },
  counterparty: (tx) => tx.payer,
  view: (p) => ({ revoked_session_key_id: p.revokedKeyId.toString() }),
});
