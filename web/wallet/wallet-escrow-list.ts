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

export function createEscrowList(options: {
  link: NodeClient;
  light: LightNode;
  db: WalletDb;
  escrowDb: Promise<EscrowDb>;
  wallet: Wallet;
  table: HTMLTableElement;
  live: HTMLElement;
  /** Called after a reclaim the node admitted. */
  onReclaimed: () => Promise<void>;
}): EscrowList {
  const { link, light, wallet } = options;
  const lastStatus = new Map<string, string>();
  /** Proofs of escrows this tab has seen settled: final, so kept instead of read again on every block. */
  const settledProofs = new Map<string, Awaited<ReturnType<typeof fetchVerifiedEscrow>>>();
  let running: Promise<void> | undefined;
  let again = false;

  const reclaim = async (row: EscrowRow, button: HTMLButtonElement) => {
    button.disabled = true;
    try {
      const history = await options.db.history(wallet.name);
      const sent = await reclaimEscrow(link, light.chain, wallet, row.escrowId, { fee: reclaimFee, pendingOwn: (client) => pendingSends(history, client) });
      await options.db.putHistory({
        wallet: wallet.name, hash: sent.hash, type: 'self', address: sent.client, counterparty: sent.client, amount: row.amount,
        status: 'pending', nodeStatus: sent.status, own: true, payer: sent.client, payerNonce: String(sent.nonce), nonceSeenBelow: true, timeMs: Date.now(),
      });
      await (await options.escrowDb).putEscrow({ ...row, reclaimHash: sent.hash });
      options.live.textContent = `reclaim of escrow ${shortId(row.escrowId)} sent: ${sent.hash} (${sent.status})`;
      await options.onReclaimed();
      await list.refresh();
    } catch (error) {
      showError(button.closest('td')!, error, { action: button });
      button.disabled = false;
    }
  };

  const statusCell = (cell: HTMLTableCellElement, row: EscrowRow, proven: Awaited<ReturnType<typeof fetchVerifiedEscrow>>) => {
    if (!proven.ok) {
      Object.assign(cell, { textContent: 'failed', className: 'failed', title: `${proven.error.reason}: ${proven.error.message}` });
      return;
    }
    const { status, timeoutDaaScore, provenDaaScore, blockHash } = proven.value;
    const pendingReclaim = row.reclaimHash !== undefined && status === 'EscrowLocked';
    cell.textContent = status === 'None' ? 'pending' : pendingReclaim ? `${status} (reclaim pending)` : status;
    cell.className = 'verified';
    cell.title = `proven against verified block ${blockHash} (DAA score ${provenDaaScore}); times out at DAA score ${timeoutDaaScore}`;
  };

  const actionCell = (cell: HTMLTableCellElement, row: EscrowRow, proven: Awaited<ReturnType<typeof fetchVerifiedEscrow>>) => {
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
    button.onclick = () => void reclaim(row, button);
    cell.replaceChildren(button, why);
  };

  const render = async () => {
    const escrowDb = await options.escrowDb;
    const rows = await escrowDb.escrows(wallet.name);
    await light.synced();
    const body = options.table.tBodies[0]!;
    const changes: string[] = [];
    const trs: HTMLTableRowElement[] = [];
    for (const row of rows) {
      const proven = settledProofs.get(row.escrowId) ?? (await fetchVerifiedEscrow(link, light.chain, row.escrowId));
      const tr = document.createElement('tr');
      tr.dataset['escrowId'] = row.escrowId;
      const created = row.createHash === undefined ? 'added by its id' : `created by ${row.createHash}`;
      Object.assign(tr.insertCell(), { textContent: shortId(row.escrowId), title: `escrow ${row.escrowId}, ${created}; task ${row.task}` });
      Object.assign(tr.insertCell(), { textContent: `${row.agent.slice(0, 12)}…${row.agent.slice(-6)}`, title: row.agent });
      Object.assign(tr.insertCell(), { className: 'num', textContent: row.amount });
      statusCell(tr.insertCell(), row, proven);
      actionCell(tr.insertCell(), row, proven);
      trs.push(tr);
      if (!proven.ok) continue;
      const status = proven.value.status;
      const before = lastStatus.get(row.escrowId);
      if (before !== undefined && before !== status) changes.push(`escrow ${shortId(row.escrowId)} ${status}`);
      lastStatus.set(row.escrowId, status);
      if (status === 'Claimed' || status === 'Refunded') settledProofs.set(row.escrowId, proven);
      if (row.lastStatus !== status) await escrowDb.putEscrow({ ...row, lastStatus: status });
    }
    body.replaceChildren(...trs);
    if (changes.length > 0) options.live.textContent = changes.join('; ');
  };

  const track = async (idText: string) => {
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
    await (await options.escrowDb).putEscrow({
      wallet: wallet.name, escrowId: id, client: client.text, agent: encodeAddress(hrp, record.agent), amount: formatUnits(record.amount),
      task: toHash0x(record.taskHash), timeoutDaaScore: Number(record.timeoutDaaScore), timeMs: Date.now(), lastStatus: status,
    });
    await list.refresh();
  };

  const list: EscrowList = {
    track,
    async refresh() {
      if (running) {
        again = true;
        return running;
      }
      running = (async () => {
        do {
          again = false;
          await render();
        } while (again);
      })().finally(() => (running = undefined));
      return running;
    },
  };
  return list;
}
