/**
 * What the explorer derives about agent accounts and escrows from the transaction index (docs/web.md "Agent accounts
 * and escrows"), with no read of its own: the node indexes an agent or escrow transaction under its payer and its
 * `to` only, so
 *
 * - an agent's escrows are the `escrow_create` transactions its history lists as incoming (`to` = the agent), each
 *   escrow's id being BLAKE3("weft/escrow/id/v1" ‖ client ‖ nonce) of the create (src/kinds/escrow/escrow-record.ts);
 * - an escrow's status history is the record's own steps (created, disputed, settled: the DAA scores it keeps) with
 *   the transaction that made each, looked up in the history of whoever may send that step (the client creates and
 *   reclaims, the agent claims, either disputes, the arbiter resolves), newest first, until each step is found.
 *
 * Every scan is bounded (`scanPagesMax` pages of `scanPageSize`); what it did not reach is said, never guessed.
 */
import { decodeAddress } from '../../src/crypto/address.ts';
import { escrowIdOf } from '../../src/kinds/escrow/escrow-record.ts';
import { strip0x, toHash0x } from '../../src/util/bytes.ts';
import { type GetEscrowReturnType, getTransactionHistory } from '../../packages/client/src/index.ts';
import type { RpcClient } from '../lib/node-client.ts';

export type Tx = Record<string, unknown>;
export type EscrowView = NonNullable<GetEscrowReturnType['escrow']>;
type EscrowStatusName = EscrowView['status'];

/** History rows per read while scanning. */
export const scanPageSize = 200;
/** Reads per scan: an address's newest 1,000 transactions. */
export const scanPagesMax = 5;

const normalHash = (hex: string): string => `0x${strip0x(hex).toLowerCase()}`;

/** The escrow a transaction of an escrow kind names: its `escrow_id`, or for a create the id its client and nonce make. */
export function escrowIdOfTransaction(tx: Tx): string | undefined {
  if (tx.kind === 'escrow_create') {
    const client = String(tx.from);
    const nonce = BigInt(String(tx.nonce_exact ?? tx.nonce));
    return toHash0x(escrowIdOf(decodeAddress(client, client.slice(0, client.lastIndexOf('1'))), nonce));
  }
  return typeof tx.escrow_id === 'string' && String(tx.kind).startsWith('escrow_') ? normalHash(tx.escrow_id) : undefined;
}

export interface AgentEscrowScan {
  /** The agent's escrow creates found, newest first, each with its `escrow_id`. */
  readonly creates: readonly (Tx & { escrow_id: string })[];
  /** The history offset to go on from; undefined once the whole history was read. */
  readonly nextOffset: number | undefined;
  /** History rows read in this scan. */
  readonly scanned: number;
}

/** Reads the agent's history from `offset` until `want` escrow creates were found, the history ended, or the scan's bound. */
export async function scanAgentEscrows(client: RpcClient, agent: string, offset: number, want: number): Promise<AgentEscrowScan> {
  const creates: (Tx & { escrow_id: string })[] = [];
  let at = offset;
  for (let page = 0; page < scanPagesMax; page++) {
    const txs = (await getTransactionHistory(client, { address: agent, limit: scanPageSize, offset: at })).transactions as Tx[];
    for (const tx of txs) {
      at++;
      if (tx.kind === 'escrow_create' && tx.to === agent) creates.push({ ...tx, escrow_id: escrowIdOfTransaction(tx)! });
      // Stop at the row that completed the batch, so the next scan starts right after it.
      if (creates.length === want) return { creates, nextOffset: at, scanned: at - offset };
    }
    if (txs.length < scanPageSize) return { creates, nextOffset: undefined, scanned: at - offset };
  }
  return { creates, nextOffset: at, scanned: at - offset };
}

/** One step of an escrow's life: the status it entered, by which kind, at which DAA score, and who may have sent it. */
export interface EscrowStep {
  readonly status: EscrowStatusName;
  readonly kind: 'escrow_create' | 'escrow_dispute' | 'escrow_claim' | 'escrow_reclaim' | 'escrow_resolve';
  readonly daaScore: number;
  readonly senders: readonly string[];
  /** The transaction that made it, when the scan found it. */
  tx?: Tx;
}

/** The steps the record says happened, in order (docs/settlement.md "Transitions"). */
export function escrowSteps(escrow: EscrowView): EscrowStep[] {
  const steps: EscrowStep[] = [{ status: 'EscrowLocked', kind: 'escrow_create', daaScore: escrow.created_daa_score, senders: [escrow.client] }];
  const disputed = escrow.status === 'Disputed' || escrow.disputed_daa_score > 0;
  if (disputed) steps.push({ status: 'Disputed', kind: 'escrow_dispute', daaScore: escrow.disputed_daa_score, senders: [escrow.client, escrow.agent_account] });
  if (escrow.status === 'Claimed' || escrow.status === 'Refunded') {
    const settlement = disputed
      ? { kind: 'escrow_resolve' as const, senders: escrow.arbiter === null ? [] : [escrow.arbiter] }
      : escrow.status === 'Claimed'
        ? { kind: 'escrow_claim' as const, senders: [escrow.agent_account] }
        : { kind: 'escrow_reclaim' as const, senders: [escrow.client] };
    steps.push({ status: escrow.status, daaScore: escrow.settled_daa_score, ...settlement });
  }
  return steps;
}

export interface EscrowHistory {
  readonly steps: readonly EscrowStep[];
  /** Addresses whose scan stopped at its bound with a step still missing. */
  readonly unscanned: readonly string[];
}

/** The escrow's steps with their transactions, from the histories of the addresses that may have sent them. */
export async function escrowHistory(client: RpcClient, escrow: EscrowView): Promise<EscrowHistory> {
  const id = normalHash(escrow.escrow_id);
  const steps = escrowSteps(escrow);
  const addresses = [...new Set(steps.flatMap((s) => s.senders))];
  const unscanned: string[] = [];
  const missingFor = (address: string): EscrowStep[] => steps.filter((s) => s.tx === undefined && s.senders.includes(address));
  await Promise.all(addresses.map(async (address) => {
    let offset = 0;
    for (let page = 0; missingFor(address).length > 0; page++) {
      if (page === scanPagesMax) return void unscanned.push(address);
      const txs = (await getTransactionHistory(client, { address, limit: scanPageSize, offset })).transactions as Tx[];
      offset += txs.length;
      for (const tx of txs) {
        const step = missingFor(address).find((s) => s.kind === tx.kind && tx.from === address);
        if (step && escrowIdOfTransaction(tx) === id) step.tx = tx;
      }
      if (txs.length < scanPageSize) return;
    }
  }));
  return { steps, unscanned };
}
