/**
 * The history table of the wallet page: each row links to the explorer's transaction page (the hash shortened,
 * full on hover), says its direction and amount, its status as this tab proved it (pending → confirmed → final, or
 * unconfirmed when acceptance cannot be proven; what the node says is in the title only) and its proof status
 * (verified: in a verified block, bound to the address by its bytes and accepted; included: all but acceptance;
 * failed with the reason; or — while not in a block, when direction and amount are still the node's word). A row that changes status is announced once in a live region, so a screen reader
 * hears "confirmed" without re-reading the table.
 */
import type { HistoryRow } from './wallet-db.ts';

const shortHash = (hash: string): string => `${hash.slice(0, 10)}…${hash.slice(-6)}`;
const directionText: Record<HistoryRow['type'], string> = { incoming: 'in', outgoing: 'out', self: 'self' };

function rowElement(row: HistoryRow): HTMLTableRowElement {
  const tr = document.createElement('tr');
  tr.dataset['hash'] = row.hash;
  const link = Object.assign(document.createElement('a'), { href: `./#/tx/${row.hash}`, textContent: shortHash(row.hash), title: row.hash });
  link.setAttribute('aria-label', `transaction ${row.hash}`);
  tr.insertCell().append(link);
  const type = tr.insertCell();
  type.textContent = row.type;
  type.title = row.counterparty ? `${directionText[row.type]}: ${row.counterparty}` : row.type;
  Object.assign(tr.insertCell(), { className: 'num', textContent: row.amount });
  const status = tr.insertCell();
  Object.assign(status, { className: `status-${row.status}`, textContent: row.status });
  status.title = `proven by this tab; the node says: ${row.nodeStatus ?? 'nothing yet'}`;
  const proof = tr.insertCell();
  proof.textContent = row.proof ?? '—';
  proof.className = row.proof ?? '';
  proof.title = row.proofNote ?? 'not in a block yet: direction and amount are the node\'s word until its bytes are proven';
  return tr;
}

/** What changed between two renders of one row, in words; undefined when nothing a user cares about did. */
function changeOf(before: HistoryRow | undefined, after: HistoryRow): string | undefined {
  if (before === undefined) return after.status === 'pending' ? `${after.type} transaction ${shortHash(after.hash)} pending` : undefined;
  const parts: string[] = [];
  if (before.status !== after.status) parts.push(after.status);
  if (before.proof !== after.proof && after.proof !== undefined) {
    parts.push(after.proof === 'verified' ? 'acceptance proven' : after.proof === 'included' ? 'inclusion proven' : 'proof failed');
  }
  return parts.length > 0 ? `transaction ${shortHash(after.hash)} ${parts.join(', ')}` : undefined;
}

/** A renderer for `table`'s body that remembers the last rows, to announce what changed in `live`. */
export function createHistoryTable(table: HTMLTableElement, live: HTMLElement): (rows: readonly HistoryRow[]) => void {
  let previous = new Map<string, HistoryRow>();
  let first = true;
  return (rows) => {
    table.tBodies[0]!.replaceChildren(...rows.map(rowElement));
    const changes = first ? [] : rows.map((row) => changeOf(previous.get(row.hash), row)).filter((c): c is string => c !== undefined);
    if (changes.length > 0) live.textContent = changes.join('; ');
    previous = new Map(rows.map((row) => [row.hash, row]));
    first = false;
  };
}
