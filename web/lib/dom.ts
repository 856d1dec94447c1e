/**
 * The web app's one DOM lookup helper. Pages look elements up by id (`byId`) or by selector (`query`);
 * both throw when the element is missing, so a renamed id fails at the first render instead of as a
 * `null` dereference three calls later.
 */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const el = document.getElementById(id);
  if (!el) throw new Error(`missing element #${id}`);
  return el as T;
}

export function query<T extends Element = HTMLElement>(selector: string, root: ParentNode = document): T {
  const el = root.querySelector(selector);
  if (!el) throw new Error(`missing element ${selector}`);
  return el as T;
}

/** One row of a keyed table: `key` names the thing shown, `html` its cells. */
export interface KeyedRow { key: string; html: string }

/**
 * Brings `tbody` to `rows` keeping every row element whose key stays: a row is rewritten only when its cells
 * changed and moved only when its place did, so a new block prepended to a live list leaves the link under the
 * pointer attached and in place instead of replacing the whole list mid-click. Rows carry their key and cells in
 * `data-key` and a property, so a row written by a previous call is found again without a side table. A relative
 * time ("12 s ago") does not count as a change: `refreshTimes` keeps `<time data-ms>` current in place.
 */
export function renderKeyedRows(tbody: HTMLTableSectionElement, rows: readonly KeyedRow[]): void {
  type Row = HTMLTableRowElement & { keyedHtml?: string };
  const existing = new Map<string, Row>();
  for (const tr of Array.from(tbody.rows) as Row[]) if (tr.dataset.key !== undefined) existing.set(tr.dataset.key, tr);
  rows.forEach((row, index) => {
    let tr = existing.get(row.key);
    existing.delete(row.key);
    if (!tr) {
      tr = document.createElement('tr') as Row;
      tr.dataset.key = row.key;
    }
    const cells = withoutTimeText(row.html);
    if (tr.keyedHtml !== cells) {
      tr.innerHTML = row.html;
      tr.keyedHtml = cells;
    }
    const at = tbody.rows[index];
    if (at !== tr) tbody.insertBefore(tr, at ?? null);
  });
  for (const tr of existing.values()) tr.remove();
  while (tbody.rows.length > rows.length) tbody.rows[tbody.rows.length - 1]!.remove();
}

const withoutTimeText = (html: string): string => html.replace(/(<time\b[^>]*>)[^<]*(<\/time>)/g, '$1$2');
