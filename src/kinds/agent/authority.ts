/**
 * Who may act for a payer, and what it costs (docs/settlement.md "Signers", "Fees and the energy pool"): the state
 * rules every agent and escrow transaction passes before its kind's own, and their transition.
 *
 * - Nonce: the payer's account nonce, whoever signs — an agent account's owner, controller and session keys share
 *   one nonce sequence, so the mempool orders them like any sender's transactions.
 * - Signer: role 0 is the payer's own key (checked by the codec); a controller must be the payer agent account's
 *   controller, for a kind the controller may sign; a session key must be the account's, unrevoked, unexpired at
 *   the accepting block's DAA score, scoped for the kind, and within its per-transaction and total caps (the cost
 *   being amount + fee, the coins the transaction takes from the account).
 * - Frozen: no key of a frozen agent account signs anything accepted, except the owner's unfreeze.
 * - Funds: the amount comes from the payer's balance; the fee from the balance, or with `use_energy` from the agent
 *   account's energy pool (a payer that is no agent account: its account energy, as for transfers). Pool-paid fees
 *   are coins and go to the carrying block's reward like balance-paid ones; account energy is burnt as energy.
 */
import type { Paid, Spend, TxStateView } from '../kind.ts';
import { equalBytes } from '../../util/bytes.ts';
import { sessionKeyOf, sessionScopeBit, type AgentRecord } from './agent-record.ts';
import { readAgent, writeAgent } from './agent-state.ts';
import type { AgentTransaction } from './agent-transaction.ts';

export interface AuthorityRules<Tx> {
  /** Whether the payer agent account's controller may sign the kind (session keys: their scope decides). */
  readonly controllerMay: boolean;
  /** Whether a frozen payer may still send it (only the owner's unfreeze). */
  allowedWhileFrozen?(tx: Tx): boolean;
}

/** What the shared rules found, for the kind's own: the accepting DAA score and the payer's agent record. */
export interface Authority {
  readonly now: bigint;
  readonly agent: AgentRecord | undefined;
}

// SignerRole's values (envelope.ts imports this module, so they are restated rather than imported back).
const controllerRole = 1;
const sessionKeyRole = 2;

function checkSigner(tx: AgentTransaction, agent: AgentRecord, cost: bigint, now: bigint): string | undefined {
  if (tx.signerRole === controllerRole) return equalBytes(tx.signer, agent.controller) ? undefined : 'signer_not_controller';
  if (tx.signerRole !== sessionKeyRole) return undefined;
  const key = sessionKeyOf(agent, tx.sessionKeyId);
  if (key === undefined) return 'session_key_unknown';
  if (!equalBytes(key.publicKey, tx.signer)) return 'session_key_mismatch';
  if (key.revoked) return 'session_key_revoked';
  if (now >= key.expiryDaaScore) return 'session_key_expired';
  if ((key.allowedKinds & (sessionScopeBit.get(tx.kind) ?? 0)) === 0) return 'session_key_out_of_scope';
  if (cost > key.txCap) return 'session_key_tx_cap';
  if (key.spent + cost > key.totalCap) return 'session_key_total_cap';
  return undefined;
}

/** The shared state rules: a coded reason, or what the kind's own rules need. Writes nothing. */
export function checkAuthority<Tx extends AgentTransaction>(state: TxStateView, tx: Tx, spend: Spend, rules: AuthorityRules<Tx>): string | Authority {
  const now = BigInt(state.daaScore);
  const account = state.account(tx.payer);
  if (tx.nonce !== account.nonce) return 'nonce';
  if (tx.signerRole === controllerRole && !rules.controllerMay) return 'signer_role_not_allowed';
  if (tx.signerRole === sessionKeyRole && !sessionScopeBit.has(tx.kind)) return 'signer_role_not_allowed';
  const agent = readAgent(state, tx.payer);
  if (agent === undefined) {
    if (tx.signerRole !== 0) return 'agent_unknown';
  } else {
    if (agent.frozen && rules.allowedWhileFrozen?.(tx) !== true) return 'agent_frozen';
    const refused = checkSigner(tx, agent, spend.amount + spend.fee, now);
    if (refused !== undefined) return refused;
  }
  const coinFee = spend.useEnergy ? 0n : spend.fee;
  if (account.balance < spend.amount + coinFee) return 'balance';
  if (spend.useEnergy) {
    if (agent !== undefined && agent.energyPool < spend.fee) return 'energy_pool';
    if (agent === undefined && account.energy < spend.fee) return 'energy';
  }
  return { now, agent };
}

/** The shared transition: nonce, amount and fee from the payer, a session key's spending, the pool's fee. */
export function applyAuthority(state: TxStateView, tx: AgentTransaction, spend: Spend): Paid {
  const account = state.account(tx.payer);
  const agent = readAgent(state, tx.payer);
  const poolFee = spend.useEnergy && agent !== undefined ? spend.fee : 0n;
  const energyFee = spend.useEnergy && agent === undefined ? spend.fee : 0n;
  const coinFee = spend.useEnergy ? 0n : spend.fee;
  state.setAccount(tx.payer, {
    ...account,
    balance: account.balance - spend.amount - coinFee,
    nonce: account.nonce + 1n,
    energy: account.energy - energyFee,
  });
  if (agent !== undefined && (poolFee > 0n || tx.signerRole === sessionKeyRole)) {
    const cost = spend.amount + spend.fee;
    writeAgent(state, tx.payer, {
      ...agent,
      energyPool: agent.energyPool - poolFee,
      sessionKeys:
        tx.signerRole === sessionKeyRole
          ? agent.sessionKeys.map((key) => (key.id === tx.sessionKeyId ? { ...key, spent: key.spent + cost } : key))
          : agent.sessionKeys,
    });
  }
  return { coinFee: coinFee + poolFee, energyFee };
}
