/**
 * Kind 0x21, agent set controller: the owner replaces the account's controller (docs/settlement.md "Signers"), the
 * way it takes day-to-day authority back from a lost or compromised controller key. Owner only.
 *
 *   payload = controller [32]
 */
import { TxKind } from '../../codec/transaction-kinds.ts';
import { publicKeyBytes } from '../../crypto/keys.ts';
import { toHex } from '../../util/bytes.ts';
import { mustReadAgent, writeAgent } from './agent-state.ts';
import { defineAgentKind } from './envelope.ts';

export interface AgentSetControllerPayload {
  readonly controller: Uint8Array;
}

export const agentSetControllerKind = defineAgentKind<typeof TxKind.AgentSetController, AgentSetControllerPayload>({
  tag: TxKind.AgentSetController,
  name: 'agent_set_controller',
  controllerMay: false,
  payload: {
    bytes: () => publicKeyBytes,
    write: (w, p) => w.bytes(p.controller, publicKeyBytes, 'controller'),
    read: (r) => ({ controller: r.bytes(publicKeyBytes, 'transaction controller') }),
  },
  amount: () => 0n,
  check: (_state, _tx, authority) => (authority.agent === undefined ? 'agent_unknown' : undefined),
  apply(state, tx) {
    writeAgent(state, tx.payer, { ...mustReadAgent(state, tx.payer), controller: tx.payload.controller });
  },
  counterparty: (tx) => tx.payer,
  view: (p) => ({ controller: toHex(p.controller) }),
});
