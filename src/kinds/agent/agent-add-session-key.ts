/**
 * Kind 0x22, agent add session key: the owner or the controller gives a key a scope (docs/settlement.md "Session
 * keys"): the kinds it may sign (bits of sessionScopeBit), a per-transaction and a total spend cap, and an expiry
 * in DAA score. The account assigns the id (next_session_key_id), so ids are never reused. When the account already
 * holds sessionKeysMax keys, revoked and expired ones are dropped first; if none is, the key is refused.
 *
 *   payload = public_key [32] | allowed_kinds u32 | tx_cap u64 | total_cap u64 | expiry_daa_score u64
 */
import { TxKind } from '../../codec/transaction-kinds.ts';
import { publicKeyBytes } from '../../crypto/keys.ts';
import { DecodeError } from '../../errors.ts';
import { toHex } from '../../util/bytes.ts';
import { InvalidTransactionError } from '../errors.ts';
import type { TxStateView } from '../kind.ts';
import { sessionKeysMax, sessionScopeMask, type AgentRecord, type SessionKey } from './agent-record.ts';
import { mustReadAgent, writeAgent } from './agent-state.ts';
import { defineAgentKind } from './envelope.ts';

export interface AgentAddSessionKeyPayload {
  readonly publicKey: Uint8Array;
  readonly allowedKinds: number;
  readonly txCap: bigint;
  readonly totalCap: bigint;
  readonly expiryDaaScore: bigint;
}

/** The keys that stay when a full account adds one: live ones (unrevoked, unexpired at `now`). */
function keysWithRoom(record: AgentRecord, now: bigint): readonly SessionKey[] {
  if (record.sessionKeys.length < sessionKeysMax) return record.sessionKeys;
  return record.sessionKeys.filter((key) => !key.revoked && key.expiryDaaScore > now);
}

const nowOf = (state: TxStateView): bigint => BigInt(state.daaScore);

export const agentAddSessionKeyKind = defineAgentKind<typeof TxKind.AgentAddSessionKey, AgentAddSessionKeyPayload>({
  tag: TxKind.AgentAddSessionKey,
  name: 'agent_add_session_key',
  controllerMay: true,
  payload: {
    bytes: () => publicKeyBytes + 4 + 8 * 3,
    write(w, p) {
      if ((p.allowedKinds & ~sessionScopeMask) !== 0) {
        throw new InvalidTransactionError(`transaction allowed_kinds: got ${p.allowedKinds}, expected bits of ${sessionScopeMask}`);
      }
      w.bytes(p.publicKey, publicKeyBytes, 'public_key');
      w.u32(p.allowedKinds, 'allowed_kinds');
      w.u64(p.txCap, 'tx_cap');
      w.u64(p.totalCap, 'total_cap');
      w.u64(p.expiryDaaScore, 'expiry_daa_score');
    },
    read(r) {
      const publicKey = r.bytes(publicKeyBytes, 'transaction public_key');
      const allowedKinds = r.u32('transaction allowed_kinds');
      if ((allowedKinds & ~sessionScopeMask) !== 0) {
        throw new DecodeError(`transaction allowed_kinds: got ${allowedKinds}, expected bits of ${sessionScopeMask}`);
      }
      return { publicKey, allowedKinds, txCap: r.u64('transaction tx_cap'), totalCap: r.u64('transaction total_cap'), expiryDaaScore: r.u64('transaction expiry_daa_score') };
    },
  },
  amount: () => 0n,
  check(_state, tx, { agent, now }) {
    if (agent === undefined) return 'agent_unknown';
    if (tx.payload.expiryDaaScore <= now) return 'session_key_expiry_passed';
    if (keysWithRoom(agent, now).length >= sessionKeysMax) return 'session_keys_full';
    return undefined;
  },
  apply(state, tx) {
    const agent = mustReadAgent(state, tx.payer);
    const { publicKey, allowedKinds, txCap, totalCap, expiryDaaScore } = tx.payload;
    const added: SessionKey = { id: agent.nextSessionKeyId, publicKey, allowedKinds, txCap, totalCap, spent: 0n, expiryDaaScore, revoked: false };
    writeAgent(state, tx.payer, {
      ...agent,
      nextSessionKeyId: agent.nextSessionKeyId + 1n,
      sessionKeys: [...keysWithRoom(agent, nowOf(state)), added],
    });
  },
  counterparty: (tx) => tx.payer,
  view: (p) => ({
    public_key: toHex(p.publicKey),
    allowed_kinds: p.allowedKinds,
    tx_cap_exact: p.txCap.toString(),
    total_cap_exact: p.totalCap.toString(),
    expiry_daa_score: p.expiryDaaScore.toString(),
  }),
});
