/**
 * Kind 0x30, escrow create (the seed's CreateTaskEscrow): the payer, the client, locks `amount` of its balance for an
 * agent account and a task id hash (docs/settlement.md "Escrows"). The escrow id is escrowIdOf(payer, nonce). From
 * `timeout_daa_score` on the client may reclaim and the agent may no longer claim; with a `dispute_window` w > 0
 * the agent may claim without the client's receipt from created + w on, which must fall before the timeout; with an
 * arbiter either party may dispute while locked and the arbiter splits the amount. Under rules v2 the arbiter must
 * be a standard address, the only kind that can sign the resolve (escrow-rules-v2.ts).
 *
 *   payload = agent [33] | task_hash [32] | amount u64 | timeout_daa_score u64 | dispute_window u64
 *             | has_arbiter u8 | arbiter [33 if has_arbiter]
 */
import { TxKind } from '../../codec/transaction-kinds.ts';
import { addressBytes, encodeAddress } from '../../crypto/address.ts';
import { equalBytes, toHex } from '../../util/bytes.ts';
import { readAgent } from '../agent/agent-state.ts';
import { defineAgentKind, readAddress, readFlag } from '../agent/envelope.ts';
import { escrowIdOf, EscrowStatus, taskHashBytes } from './escrow-record.ts';
import { arbiterCanSign } from './escrow-rules-v2.ts';
import { writeEscrow } from './escrow-state.ts';

export interface EscrowCreatePayload {
  readonly agent: Uint8Array;
  readonly taskHash: Uint8Array;
  readonly amount: bigint;
  readonly timeoutDaaScore: bigint;
  readonly disputeWindow: bigint;
  readonly arbiter: Uint8Array | undefined;
}

export const escrowCreateKind = defineAgentKind<typeof TxKind.EscrowCreate, EscrowCreatePayload>({
  tag: TxKind.EscrowCreate,
  name: 'escrow_create',
  controllerMay: true,
  payload: {
    bytes: (p) => addressBytes + taskHashBytes + 8 * 3 + 1 + (p.arbiter === undefined ? 0 : addressBytes),
    write(w, p) {
      w.bytes(p.agent, addressBytes, 'agent');
      w.bytes(p.taskHash, taskHashBytes, 'task_hash');
      w.u64(p.amount, 'amount');
      w.u64(p.timeoutDaaScore, 'timeout_daa_score');
      w.u64(p.disputeWindow, 'dispute_window');
      w.u8(p.arbiter === undefined ? 0 : 1);
      if (p.arbiter !== undefined) w.bytes(p.arbiter, addressBytes, 'arbiter');
    },
    read(r) {
      const agent = readAddress(r, 'agent');
      const taskHash = r.bytes(taskHashBytes, 'transaction task_hash');
      const amount = r.u64('transaction amount');
      const timeoutDaaScore = r.u64('transaction timeout_daa_score');
      const disputeWindow = r.u64('transaction dispute_window');
      const arbiter = readFlag(r, 'has_arbiter') ? readAddress(r, 'arbiter') : undefined;
      return { agent, taskHash, amount, timeoutDaaScore, disputeWindow, arbiter };
    },
  },
  amount: (p) => p.amount,
  check(state, tx, { now }) {
    const p = tx.payload;
    if (p.amount === 0n) return 'amount_zero';
    const agent = readAgent(state, p.agent);
    if (agent === undefined) return 'agent_unknown';
    if (agent.frozen) return 'agent_frozen';
    if (equalBytes(p.agent, tx.payer)) return 'escrow_client_is_agent';
    if (p.arbiter !== undefined && (equalBytes(p.arbiter, tx.payer) || equalBytes(p.arbiter, p.agent))) return 'escrow_arbiter_is_party';
    if (p.arbiter !== undefined && state.rulesV2 === true && !arbiterCanSign(p.arbiter)) return 'escrow_arbiter_cannot_sign';
    if (p.timeoutDaaScore <= now) return 'escrow_timeout_passed';
    // No 'escrow exists' rule: the id commits to the payer's nonce, which this transaction uses up.
    return p.disputeWindow > 0n && now + p.disputeWindow >= p.timeoutDaaScore ? 'escrow_window_past_timeout' : undefined;
  },
  apply(state, tx) {
    const p = tx.payload;
    writeEscrow(state, escrowIdOf(tx.payer, tx.nonce), {
      client: tx.payer,
      agent: p.agent,
      taskHash: p.taskHash,
      amount: p.amount,
      createdDaaScore: BigInt(state.daaScore),
      timeoutDaaScore: p.timeoutDaaScore,
      disputeWindow: p.disputeWindow,
      arbiter: p.arbiter,
      status: EscrowStatus.EscrowLocked,
      disputedDaaScore: 0n,
      settledDaaScore: 0n,
      agentShare: 0n,
    });
  },
  counterparty: (tx) => tx.payload.agent,
  view: (p, hrp) => ({
    agent: encodeAddress(hrp, p.agent),
    task_hash: toHex(p.taskHash),
    timeout_daa_score: p.timeoutDaaScore.toString(),
    dispute_window: p.disputeWindow.toString(),
    ...(p.arbiter === undefined ? {} : { arbiter: encodeAddress(hrp, p.arbiter) }),
  }),
});
