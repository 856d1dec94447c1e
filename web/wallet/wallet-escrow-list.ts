/**
 * "Your escrows" on the wallet page: the escrows this wallet created (escrow-db.ts), each read again with get_escrow
 * and its state proof checked against a header the tab's light node verified (wallet-escrow.ts) — the status shown
 * is the proven one, or "failed" with the reason, never the node's word alone. Reclaim is enabled only for an escrow
 * proven EscrowLocked with its timeout reached (escrow-check.ts reclaimability); otherwise the button stays disabled
 * and the reason is written beside it (and describes it for a screen reader). A status change is announced once.
 * A settled escrow (Claimed, Refunded) never changes again (docs/settlement.md "Transitions"): once this tab has
 * proven it settled, it is not read again.
 */
import type { LightNode } from '../light/light-node.ts';
import type { NodeClient } from '../lib/node-client.ts';
import { decodeAddress, encodeAddress } from '../../src/crypto/address.ts';
import { formatUnits } from '../../src/crypto/amount.ts';
import { equalBytes, toHash0x } from '../../src/util/bytes.ts';
import { reclaimability } from './escrow-check.ts';
import type { EscrowDb, EscrowRow } from './escrow-db.ts';
import { FieldError, showError } from './form-errors.ts';
import type { WalletDb } from './wallet-db.ts';
import { pendingSends } from './wallet-history.ts';
import { walletDefaultFeeCoins } from './wallet-web-limits.ts';
import { fetchVerifiedEscrow, reclaimEscrow } from './wallet-escrow.ts';
import type { Wallet } from '../../src/wallet/wallet.ts';

const shortId = (id: string): string => `${id.slice(0, 10)}…${id.slice(-6)}`;
type ProvenEscrow = Awaited<ReturnType<typeof fetchVerifiedEscrow>>;
const reclaimFee = String(walletDefaultFeeCoins);

export interface EscrowList {
  /** Re-reads every listed escrow's proven status (new block, new escrow); overlapping calls run once more after. */
  refresh(): Promise<void>;
  /**
   * Adds an escrow this wallet did not create here (paid through the widget, or listed before the site's data was
   * cleared) by its id: proven to exist with one of this wallet's addresses as client. FieldError `id` if not.
   */
  track(idText: string): Promise<void>;
}

interface EscrowListOptions {
  link: NodeClient;
  light: LightNode;
  db: WalletDb;
  escrowDb: Promise<EscrowDb>;
  wallet: Wallet;
  table: HTMLTableElement;
  live: HTMLElement;
  /** Called after a reclaim the node admitted. */
  onReclaimed: () => Promise<void>;
}

/** The list's state; the functions below are its operations, and createEscrowList only wires them. */
interface EscrowListState {
  readonly options: EscrowListOptions;
  /** The last proven status of each escrow, to announce a change once. */
  readonly lastStatus: Map<string, string>;
  /** Proofs of escrows this tab has seen settled: final, so kept instead of read again on every block. */
  readonly settledProofs: Map<string, ProvenEscrow>;
  /** The refresh running now, and whether one more was asked for while it ran. */
  running: Promise<void> | undefined;
  again: boolean;
}

async function reclaim(state: EscrowListState, row: EscrowRow, button: HTMLButtonElement): Promise<void> {
  const { link, light, wallet, db, escrowDb, live } = state.options;
  button.disabled = true;
  try {
    const history = await db.history(wallet.name);
    const sent = await reclaimEscrow(link, light.chain, wallet, row.escrowId, { fee: reclaimFee, pendingOwn: (client) => pendingSends(history, client) });
    await db.putHistory({
      wallet: wallet.name, hash: sent.hash, type: 'self', address: sent.client, counterparty: sent.client, amount: row.amount,
      status: 'pending', nodeStatus: sent.status, own: true, payer: sent.client, payerNonce: String(sent.nonce), nonceSeenBelow: true, timeMs: Date.now(),
    });
    await (await escrowDb).putEscrow({ ...row, reclaimHash: sent.hash });
    live.textContent = `reclaim of escrow ${shortId(row.escrowId)} sent: ${sent.hash} (${sent.status})`;
    await state.options.onReclaimed();
    await refreshEscrows(state);
  } catch (error) {
    showError(button.closest('td')!, error, { action: button });
    button.disabled = false;
  }
}

function statusCell(cell: HTMLTableCellElement, row: EscrowRow, proven: ProvenEscrow): void {
  if (!proven.ok) {
    Object.assign(cell, { textContent: 'failed', className: 'failed', title: `${proven.error.reason}: ${proven.error.message}` });
    return;
  }
  const { status, timeoutDaaScore, provenDaaScore, blockHash } = proven.value;
  const pendingReclaim = row.reclaimHash !== undefined && status === 'EscrowLocked';
  cell.textContent = status === 'None' ? 'pending' : pendingReclaim ? `${status} (reclaim pending)` : status;
  cell.className = 'verified';
  cell.title = `proven against verified block ${blockHash} (DAA score ${provenDaaScore}); times out at DAA score ${timeoutDaaScore}`;
}

function actionCell(state: EscrowListState, cell: HTMLTableCellElement, row: EscrowRow, proven: ProvenEscrow): void {
  const button = Object.assign(document.createElement('button'), { type: 'button', textContent: 'Reclaim', className: 'secondary' });
  button.setAttribute('aria-label', `Reclaim escrow ${row.escrowId}`);
  const why = Object.assign(document.createElement('p'), { className: 'hint', id: `reclaim-why-${row.escrowId.slice(2, 18)}` });
  const check = proven.ok ? reclaimability(proven.value) : { ok: false as const, reason: 'the status is not verified (see its proof)' };
  const reason = !check.ok ? check.reason : row.reclaimHash !== undefined ? 'reclaim sent: waiting for a block to accept it' : undefined;
  button.disabled = reason !== undefined;
  if (reason !== undefined) {
    why.textContent = reason;
    button.setAttribute('aria-describedby', why.id);
  }
  button.onclick = () => void reclaim(state, row, button);
  cell.replaceChildren(button, why);
}

function escrowRow(state: EscrowListState, row: EscrowRow, proven: ProvenEscrow): HTMLTableRowElement {
  const tr = document.createElement('tr');
  tr.dataset['escrowId'] = row.escrowId;
  const created = row.createHash === undefined ? 'added by its id' : `created by ${row.createHash}`;
  Object.assign(tr.insertCell(), { textContent: shortId(row.escrowId), title: `escrow ${row.escrowId}, ${created}; task ${row.task}` });
  Object.assign(tr.insertCell(), { textContent: `${row.agent.slice(0, 12)}…${row.agent.slice(-6)}`, title: row.agent });
  Object.assign(tr.insertCell(), { className: 'num', textContent: row.amount });
  statusCell(tr.insertCell(), row, proven);
  actionCell(state, tr.insertCell(), row, proven);
  return tr;
}

async function render(state: EscrowListState): Promise<void> {
  const { link, light, wallet, table, live } = state.options;
  const escrowDb = await state.options.escrowDb;
  const rows = await escrowDb.escrows(wallet.name);
  await light.synced();
  const changes: string[] = [];
  const trs: HTMLTableRowElement[] = [];
  for (const row of rows) {
    const proven = state.settledProofs.get(row.escrowId) ?? (await fetchVerifiedEscrow(link, light.chain, row.escrowId));
    trs.push(escrowRow(state, row, proven));
    if (!proven.ok) continue;
    const status = proven.value.status;
    const before = state.lastStatus.get(row.escrowId);
    if (before !== undefined && before !== status) changes.push(`escrow ${shortId(row.escrowId)} ${status}`);
    state.lastStatus.set(row.escrowId, status);
    if (status === 'Claimed' || status === 'Refunded') state.settledProofs.set(row.escrowId, proven);
    if (row.lastStatus !== status) await escrowDb.putEscrow({ ...row, lastStatus: status });
  }
  table.tBodies[0]!.replaceChildren(...trs);
  if (changes.length > 0) live.textContent = changes.join('; ');
}

async function track(state: EscrowListState, idText: string): Promise<void> {
  const { link, light, wallet } = state.options;
  const id = idText.trim().toLowerCase();
  if (!/^0x[0-9a-f]{64}$/.test(id)) throw new FieldError('id', 'escrow id: expected 0x and 64 hex digits');
  await light.synced();
  const proven = await fetchVerifiedEscrow(link, light.chain, id);
  if (!proven.ok) throw new Error(`cannot add the escrow: its proof failed (${proven.error.reason}: ${proven.error.message})`);
  const { record, status } = proven.value;
  if (record === null) throw new FieldError('id', 'escrow id: no escrow with this id (verified)');
  const hrp = wallet.network.hrp;
  const client = wallet.addresses().find((a) => a.type === 'standard' && equalBytes(decodeAddress(a.text, hrp), record.client));
  if (client === undefined) throw new FieldError('id', `escrow id: its client ${encodeAddress(hrp, record.client)} is not an address of this wallet`);
  await (await state.options.escrowDb).putEscrow({
    wallet: wallet.name, escrowId: id, client: client.text, agent: encodeAddress(hrp, record.agent), amount: formatUnits(record.amount),
    task: toHash0x(record.taskHash), timeoutDaaScore: Number(record.timeoutDaaScore), timeMs: Date.now(), lastStatus: status,
  });
  await refreshEscrows(state);
}

/** One refresh at a time; one asked for while it runs runs once more after it. */
function refreshEscrows(state: EscrowListState): Promise<void> {
  if (state.running) {
    state.again = true;
    return state.running;
  }
  state.running = (async () => {
    do {
      state.again = false;
      await render(state);
    } while (state.again);
  })().finally(() => (state.running = undefined));
  return state.running;
}

export function createEscrowList(options: EscrowListOptions): EscrowList {
  const state: EscrowListState = { options, lastStatus: new Map(), settledProofs: new Map(), running: undefined, again: false };
  return { refresh: () => refreshEscrows(state), track: (idText) => track(state, idText) };
}
