/**
 * The node-wallet settlement methods' shared half (docs/api.md "Agent accounts and escrows"): which key signs (the
 * payer's own, its agent account's controller, or one of its session keys), a pre-check of the transaction against
 * the virtual state with the consensus rules themselves (`checkContext`), and submission to the mempool.
 *
 * The pre-check gives the caller the chain's coded reason at once (-40003 with `data.rule`, -40001 for funds) and
 * changes nothing. It runs when the payer has no transaction pending (its nonce is the account's): with some pending,
 * their effects are not in the virtual state, so the transaction is submitted and the accepting block judges it.
 */
import { z } from 'zod';
import { rulesV2Active } from '../../consensus/activation.ts';
import { encodeAddress } from '../../crypto/address.ts';
import { formatUnits } from '../../crypto/amount.ts';
import { decodeAgentRecord, sessionKeyOf, type AgentRecord } from '../../kinds/agent/agent-record.ts';
import { SignerRole, type AgentTransaction, type UnsignedAgentTransaction } from '../../kinds/agent/envelope.ts';
import type { TxKindModule, TxStateView } from '../../kinds/kind.ts';
import { kindOf } from '../../kinds/registry.ts';
import { toHash0x } from '../../util/bytes.ts';
import { InsufficientBalanceError, ServiceUnavailableError, TransactionRejectedError } from '../errors.ts';
import { need, type RpcCallContext } from '../method.ts';
import { coinsResult, hashResult, transactionStatusResult, u64NumberResult } from '../result-schemas.ts';
import { amountSchema, parseCoins } from '../schemas.ts';
import { sendTransactionDefaults } from '../methods/send-transaction.ts';

const roleByName = { owner: SignerRole.Key, controller: SignerRole.Controller, session_key: SignerRole.SessionKey } as const;

/** Params every settlement method takes besides its own: fee, fee source, and who signs. */
export const signerParams = {
  fee: amountSchema.default(sendTransactionDefaults.fee),
  use_energy: z.boolean().default(false).describe("pay the fee from the agent account's energy pool (other payers: their energy)"),
  signer_role: z.enum(['owner', 'controller', 'session_key']).default('owner').describe("which of the payer's keys the node wallet signs with"),
  session_key_id: z.int().min(1).optional().describe('the session key, with signer_role session_key'),
};
export interface SignerParams {
  readonly fee: number;
  readonly use_energy: boolean;
  readonly signer_role: keyof typeof roleByName;
  readonly session_key_id?: number | undefined;
}

export const submittedResult = z.object({
  hash: hashResult,
  status: transactionStatusResult,
  kind: z.string(),
  from: z.string().describe('the payer'),
  fee: coinsResult,
  nonce: u64NumberResult,
});

export function rejected(rule: string, detail: string): TransactionRejectedError {
  return new TransactionRejectedError(`${rule}: ${detail}`, { rule });
}

/** The agent record of `address` at the virtual state, or undefined. */
export function agentAt(ctx: RpcCallContext, address: Uint8Array, method: string): AgentRecord | undefined {
  const ledger = need(ctx, 'ledger', method);
  if (ledger.stateRecord === undefined) throw new ServiceUnavailableError('ledger (state records)', method);
  const value = ledger.stateRecord('agent', address);
  return value === undefined ? undefined : decodeAgentRecord(value);
}

/** The public key the node wallet must sign with for `role`. */
function signerKey(ctx: RpcCallContext, payer: Uint8Array, params: SignerParams, method: string): Uint8Array {
  if (params.signer_role !== 'session_key' && params.session_key_id !== undefined) throw rejected('session_key_id', 'session_key_id goes with signer_role session_key');
  if (params.signer_role === 'owner') return payer.subarray(1);
  const agent = agentAt(ctx, payer, method);
  if (agent === undefined) throw rejected('agent_unknown', 'the payer is no agent account: only its own key (owner) signs');
  if (params.signer_role === 'controller') return agent.controller;
  if (params.session_key_id === undefined) throw rejected('session_key_id', 'signer_role session_key needs session_key_id');
  const key = sessionKeyOf(agent, BigInt(params.session_key_id));
  if (key === undefined) throw rejected('session_key_unknown', `the agent account has no session key ${params.session_key_id}`);
  return key.publicKey;
}

/** A read-only view of the virtual state for checkContext: the next block's DAA score, writes refused. */
function virtualView(ctx: RpcCallContext, method: string): TxStateView {
  const ledger = need(ctx, 'ledger', method);
  const tip = ctx.services.chain.selectedTip();
  const daaScore = tip.header.daaScore + 1;
  const refuse = (): never => {
    throw new Error('a pre-check never writes');
  };
  return {
    daaScore,
    rulesV2: rulesV2Active(ctx.services.chain.params, daaScore),
    account: (address) => ({ ...ledger.account(address), energyDaaScore: daaScore }),
    setAccount: refuse,
    credit: refuse,
    record: (namespace, id) => ledger.stateRecord?.(namespace, id),
    setRecord: refuse,
    carrier: () => ({ daaScore, timestampMs: tip.header.timestampMs }),
  };
}

/** Signs `kind` + `payload` for `payer` with the node wallet, pre-checks it, and submits it. */
export async function submitAgentTransaction<K extends number, P>(
  ctx: RpcCallContext,
  method: string,
  payer: Uint8Array,
  params: SignerParams,
  kind: TxKindModule<AgentTransaction<K, P>>,
  payload: P,
): Promise<z.input<typeof submittedResult> & { readonly tx: AgentTransaction<K, P> }> {
  const ledger = need(ctx, 'ledger', method);
  const wallet = need(ctx, 'wallet', method);
  const mempool = need(ctx, 'mempool', method);
  if (wallet.signAgentTransaction === undefined) throw new ServiceUnavailableError('wallet (agent signing)', method);
  const request: Omit<UnsignedAgentTransaction<K, P>, 'chainId' | 'nonce'> = {
    kind: kind.tag as K,
    payer,
    signerRole: roleByName[params.signer_role],
    signer: signerKey(ctx, payer, params, method),
    sessionKeyId: BigInt(params.session_key_id ?? 0),
    fee: parseCoins(params.fee),
    useEnergy: params.use_energy,
    payload,
  };
  const tx = (await wallet.signAgentTransaction(request)) as AgentTransaction<K, P>;
  const account = ledger.account(payer);
  if (tx.nonce === account.nonce) {
    const module = kindOf(tx);
    const reason = module.checkContext(virtualView(ctx, method), tx);
    if (reason === 'balance') {
      const spend = module.spend(tx);
      throw new InsufficientBalanceError(formatUnits(account.balance), formatUnits(spend.amount + (spend.useEnergy ? 0n : spend.fee)));
    }
    if (reason !== undefined) throw rejected(reason, `the chain would not accept this ${module.name} (docs/settlement.md "Reasons")`);
  }
  const submitted = await mempool.submit(tx);
  return { tx, hash: toHash0x(submitted.hash), status: submitted.status, kind: kindOf(tx).name, from: encodeAddress(ctx.services.chain.params.hrp, payer), fee: Number(formatUnits(tx.fee)), nonce: Number(tx.nonce) };
}
