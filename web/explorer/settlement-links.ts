/**
 * The agent and escrow rows of a transaction page: a transaction of an agent kind links the agent account it acts on
 * (the payer, or the funded agent of `agent_fund_energy_pool`), one of an escrow kind the escrow it creates or moves
 * (a create's id from its client and nonce) and, for a create or a claim, the agent.
 */
import { linkHtml } from '../lib/format.ts';
import { fieldsTable } from './page-context.ts';
import { escrowIdOfTransaction, type Tx } from './settlement-history.ts';

/** The rows as a table (`#tx-settlement`), or '' for other kinds. */
export function transactionSettlementSection(tx: Tx): string {
  const kind = String(tx.kind);
  if (!kind.startsWith('agent_') && !kind.startsWith('escrow_')) return '';
  const agent = kind === 'agent_fund_energy_pool' || kind === 'escrow_create' ? tx.agent : kind.startsWith('agent_') || kind === 'escrow_claim' ? tx.from : undefined;
  const escrowId = kind.startsWith('escrow_') ? escrowIdOfTransaction(tx) : undefined;
  return `<h3>${kind.startsWith('agent_') ? 'Agent account' : 'Escrow'}</h3>${fieldsTable([
    ['Agent account', typeof agent === 'string' ? linkHtml('agent', agent) : undefined],
    ['Escrow', escrowId === undefined ? undefined : linkHtml('escrow', escrowId)],
  ], 'tx-settlement')}`;
}
