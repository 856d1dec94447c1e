/**
 * The wallet's verified balances (docs/wallet.md "Freshness"): each address's balance and nonce from a state proof
 * checked against headers the tab's light node verified (web/light/verified-balance.ts), the block they were proven
 * at, and "available" — the proven balance minus the tab's own sends the proven state does not show yet
 * (wallet-history.ts `pendingSpent`). State and operations: `BalanceState` holds it all; each function below is
 * one operation on it.
 */
import { formatUnits } from '../../src/crypto/amount.ts';
import { freshnessText } from '../../src/light/freshness.ts';
import { fetchVerifiedBalance } from '../light/verified-balance.ts';
import type { LightNode } from '../light/light-node.ts';
import type { NodeClient } from '../lib/node-client.ts';
import { byId } from '../lib/dom.ts';
import type { WalletDb } from './wallet-db.ts';
import { pendingSpent } from './wallet-history.ts';

export interface BalanceState {
  readonly link: NodeClient;
  readonly light: LightNode;
  readonly db: WalletDb;
  readonly walletName: string;
  /** The addresses table: one row per standard address (`data-address`), balance and proof cells. */
  readonly table: HTMLTableElement;
  /** The last proven balance and nonce of each address, in units. */
  readonly proven: Map<string, { readonly balance: bigint; readonly nonce: bigint }>;
  /** Proven balance minus the tab's own sends not in the proven state yet, by address. */
  readonly available: Map<string, bigint>;
  /** The block the balances on screen were proven against (the oldest of them): its age is shown, ticking. */
  provenAt: { height: number; timestampMs: number } | undefined;
  /** The refresh running now, and whether one more was asked for while it ran. */
  refreshing: Promise<void> | undefined;
  refreshAgain: boolean;
  lastRefreshMs: number;
  /** Called after the balances or "available" changed (the send and escrow cards re-read them). */
  readonly onChange: () => void;
}

export function createBalanceState(init: Pick<BalanceState, 'link' | 'light' | 'db' | 'walletName' | 'table' | 'onChange'>): BalanceState {
  return { ...init, proven: new Map(), available: new Map(), provenAt: undefined, refreshing: undefined, refreshAgain: false, lastRefreshMs: 0 };
}

/**
 * One refresh at a time: a refresh asked for while one runs runs once more after it, so an older read (a proof
 * still waiting for its header) can never land after a newer one and leave a stale balance on screen.
 */
export function refreshBalances(state: BalanceState): Promise<void> {
  if (state.refreshing) {
    state.refreshAgain = true;
    return state.refreshing;
  }
  state.refreshing = (async () => {
    do {
      state.refreshAgain = false;
      await readBalances(state);
    } while (state.refreshAgain);
  })().finally(() => (state.refreshing = undefined));
  return state.refreshing;
}

async function readBalances(state: BalanceState): Promise<void> {
  state.lastRefreshMs = Date.now();
  await state.light.synced();
  state.provenAt = undefined;
  for (const row of state.table.tBodies[0]!.rows) {
    const address = row.dataset['address']!;
    const result = await fetchVerifiedBalance(state.light.chain, state.link, address);
    const [, balanceCell, proofCell] = row.cells;
    if (result.ok) {
      const { balance, nonce, blockHash, blockHeight, timestampMs } = result.account;
      state.proven.set(address, { balance, nonce });
      balanceCell!.textContent = result.display;
      proofCell!.textContent = 'verified';
      proofCell!.className = 'verified';
      proofCell!.title = `state proof checked against verified header ${blockHash} (height ${blockHeight}), on this tab's selected chain near its tip`;
      if (!state.provenAt || blockHeight < state.provenAt.height) state.provenAt = { height: blockHeight, timestampMs };
    } else {
      state.proven.delete(address);
      balanceCell!.textContent = '—';
      proofCell!.textContent = 'failed';
      proofCell!.className = 'failed';
      proofCell!.title = `${result.error.reason}: ${result.error.message}`;
    }
  }
  showBalanceAge(state);
  await updateAvailable(state);
}

/** Re-counts "available" from the proven balances and the tab's own pending sends, and shows the headline. */
export async function updateAvailable(state: BalanceState): Promise<void> {
  const rows = await state.db.history(state.walletName);
  state.available.clear();
  for (const [address, { balance, nonce }] of state.proven) {
    const left = balance - pendingSpent(rows, address, nonce);
    state.available.set(address, left > 0n ? left : 0n);
  }
  showHeadline(state);
  state.onChange();
}

function sum(values: Iterable<bigint>): bigint {
  let total = 0n;
  for (const value of values) total += value;
  return total;
}

/** The headline: the total proven balance in WEFT, and what of it is available (not leaving in a pending send). */
function showHeadline(state: BalanceState): void {
  const addresses = state.table.tBodies[0]!.rows.length;
  const complete = state.proven.size === addresses && addresses > 0;
  const total = sum([...state.proven.values()].map((p) => p.balance));
  const available = sum(state.available.values());
  byId('balance-total').textContent = complete ? formatUnits(total) : state.proven.size === 0 ? '…' : `${formatUnits(total)}+`;
  byId('balance-available').textContent = !complete
    ? 'Available: checking the verified balance…'
    : available === total
      ? `Available: ${formatUnits(available)} WEFT`
      : `Available: ${formatUnits(available)} WEFT (${formatUnits(total - available)} WEFT leaving in pending sends)`;
}

export function showBalanceAge(state: BalanceState): void {
  byId('balances-age').textContent = state.provenAt
    ? `Balances ${freshnessText(state.provenAt.height, state.provenAt.timestampMs, Date.now())}`
    : 'Balances: no current proof';
}
