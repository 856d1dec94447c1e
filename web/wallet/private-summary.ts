/**
 * What the private card shows, computed from the scanned state (private-account.ts): the balance (unspent outputs
 * not held by a pending send), how much of it is mature enough to spend, and the history, one row per transaction
 * that paid or spent the account. Amounts come from the outputs opened with the keys, so nothing here is stored.
 * Only outputs proven against the tab's verified headers count (private-verify.ts); the rest are summed apart as
 * "unverified", and maturity counts from the proven record's created DAA score.
 */
import { isMature } from '../../src/kinds/confidential/rules.ts';
import type { HeldOutput, PrivateHistoryRow, PrivateState } from './private-account.ts';

export interface PrivateBalance {
  /** Unspent and not held by a pending send. */
  readonly total: bigint;
  /** Of `total`, the part in outputs mature enough to be a ring member in the next block. */
  readonly spendable: bigint;
  /** What pending sends took out, change not yet back. */
  readonly pendingOut: bigint;
  /** Unspent outputs the scan found whose records are not proven (yet, or ever): counted in neither figure above. */
  readonly unverified: bigint;
}

const sum = (outputs: readonly HeldOutput[]) => outputs.reduce((s, o) => s + o.owned.amount, 0n);

function pendingKeyImages(state: PrivateState): Set<string> {
  return new Set(state.sends.flatMap((s) => s.keyImages));
}

/** Whether the output's record is proven (present, this commitment, key image unspent when proven). */
const isProvenOutput = (o: HeldOutput): boolean => o.row.provenCreatedDaaScore !== undefined;

/** Whether an output proven created at `createdDaaScore` may be a ring member in the block after the tip. */
export const provenMatureForNextBlock = (createdDaaScore: string, tipDaaScore: number, chainId: number): boolean =>
  isMature(BigInt(createdDaaScore), tipDaaScore + 1, chainId);

/** Unspent proven outputs no pending send holds, mature at the tip's DAA score, largest first. */
export function spendableOutputs(state: PrivateState, chainId: number): HeldOutput[] {
  const taken = pendingKeyImages(state);
  return state.outputs
    .filter((o) => o.row.spentBy === undefined && !taken.has(o.row.keyImage) && isProvenOutput(o) && provenMatureForNextBlock(o.row.provenCreatedDaaScore!, state.tipDaaScore, chainId))
    .sort((a, b) => (a.owned.amount < b.owned.amount ? 1 : a.owned.amount > b.owned.amount ? -1 : 0));
}

export function privateBalance(state: PrivateState, chainId: number): PrivateBalance {
  const taken = pendingKeyImages(state);
  const unspent = state.outputs.filter((o) => o.row.spentBy === undefined && !taken.has(o.row.keyImage));
  const pendingOut = state.sends.reduce((s, send) => s + BigInt(send.outflow), 0n);
  return {
    total: sum(unspent.filter(isProvenOutput)), spendable: sum(spendableOutputs(state, chainId)), pendingOut,
    unverified: sum(unspent.filter((o) => !isProvenOutput(o))),
  };
}

/** One row per transaction: what it paid in, or what it took out (inputs spent − change back). Newest first. */
export function privateHistory(state: PrivateState): PrivateHistoryRow[] {
  const byTx = new Map<string, { paid: bigint; spent: bigint; daaScore: number; proven: boolean }>();
  const entry = (hash: string, daaScore: number) => {
    const row = byTx.get(hash) ?? { paid: 0n, spent: 0n, daaScore, proven: true };
    byTx.set(hash, row);
    return row;
  };
  for (const o of state.outputs) {
    const { row, owned } = o;
    const paid = entry(row.txHash, row.daaScore);
    paid.paid += owned.amount;
    paid.proven &&= isProvenOutput(o);
    if (row.spentBy !== undefined) {
      const spent = entry(row.spentBy, row.daaScore);
      spent.spent += owned.amount;
      spent.proven &&= isProvenOutput(o) && row.spendProven === true;
    }
  }
  const rows: PrivateHistoryRow[] = [...byTx].map(([hash, t]) => ({
    hash,
    type: t.spent > 0n ? ('sent' as const) : ('received' as const),
    amount: t.spent > 0n ? t.spent - t.paid : t.paid,
    status: t.proven ? ('confirmed' as const) : ('unverified' as const),
    daaScore: t.spent > 0n ? Math.max(t.daaScore, ...state.outputs.filter((o) => o.row.txHash === hash).map((o) => o.row.daaScore)) : t.daaScore,
  }));
  for (const send of state.sends) {
    if (!byTx.has(send.hash)) rows.push({ hash: send.hash, type: 'sent', amount: BigInt(send.outflow), status: 'pending', daaScore: Number.MAX_SAFE_INTEGER });
  }
  return rows.sort((a, b) => b.daaScore - a.daaScore);
}
