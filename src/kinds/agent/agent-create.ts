/**
 * Kind 0x20, agent create: makes the payer's standard address an agent account (docs/settlement.md "Agent
 * accounts"). The payer's key becomes the owner; the account is its owner's address, so one owner key holds one
 * agent account (derive another key for another agent). Signed by the owner only.
 *
 *   payload = controller [32] | has_identity u8 | identity_proof_hash [32 if has_identity]
 */
import { TxKind } from '../../codec/transaction-kinds.ts';
import { publicKeyBytes } from '../../crypto/keys.ts';
import { toHex } from '../../util/bytes.ts';
import { identityProofHashBytes } from './agent-record.ts';
import { readAgent, writeAgent } from './agent-state.ts';
import { defineAgentKind, readFlag } from './envelope.ts';

export interface AgentCreatePayload {
  readonly controller: Uint8Array;
  readonly identityProofHash: Uint8Array | undefined;
}

export const agentCreateKind = defineAgentKind<typeof TxKind.AgentCreate, AgentCreatePayload>({
  tag: TxKind.AgentCreate,
  name: 'agent_create',
  controllerMay: false,
  payload: {
    bytes: (p) => publicKeyBytes + 1 + (p.identityProofHash === undefined ? 0 : identityProofHashBytes),
    write(w, p) {
      w.bytes(p.controller, publicKeyBytes, 'controller');
      w.u8(p.identityProofHash === undefined ? 0 : 1);
      if (p.identityProofHash !== undefined) w.bytes(p.identityProofHash, identityProofHashBytes, 'identity_proof_hash');
    },
    read(r) {
      const controller = r.bytes(publicKeyBytes, 'transaction controller');
      const identityProofHash = readFlag(r, 'has_identity') ? r.bytes(identityProofHashBytes, 'transaction identity_proof_hash') : undefined;
      return { controller, identityProofHash };
    },
  },
  amount: () => 0n,
  check: (state, tx) => (readAgent(state, tx.payer) === undefined ? undefined : 'agent_exists'),
  apply(state, tx) {
    writeAgent(state, tx.payer, {
      owner: tx.signer,
      controller: tx.payload.controller,
      frozen: false,
      energyPool: 0n,
      nextSessionKeyId: 1n,
      claimed: 0n,
      refunded: 0n,
      resolved: 0n,
      identityProofHash: tx.payload.identityProofHash,
      sessionKeys: [],
    });
  },
  counterparty: (tx) => tx.payer,
  view: (p) => ({
    controller: toHex(p.controller),
    ...(p.identityProofHash === undefined ? {} : { identity_proof_hash: toHex(p.identityProofHash) }),
  }),
});
