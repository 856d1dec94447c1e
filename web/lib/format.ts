/**
 * How the web app writes figures for people (docs/web.md "Readable figures"): amounts in coins with the unit and
 * thousands separators, times relative with the local date on hover, hashes shortened with the full text in
 * `title`, a copy button beside each, and every hash, address and block a link. Shared by the explorer pages; each
 * helper returns HTML with its inputs escaped.
 */
import { coinDecimals, formatUnits } from '../../src/crypto/amount.ts';

/** The coin's unit as the pages print it (1 WEFT = 10^8 units, docs/design.md "Networks and units"). */
const coinUnit = 'WEFT';

export const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * 1234567 → "1,234,567" (a plain integer with separators). Not `toLocaleString`: a tab's first Intl call loads ICU's
 * locale data, 50–90 ms on a desktop core and a long task on a phone while the explorer opens (issue 32,
 * docs/performance.md "Lighthouse").
 */
export const formatInteger = (n: number): string => (Number.isFinite(n) ? groupDecimal(Math.round(n).toFixed(0)) : '–');

/** "1234567.5" → "1,234,567.5": thousands separators on the whole part of an exact decimal string. */
function groupDecimal(text: string): string {
  const [whole, fraction] = text.split('.');
  const grouped = whole!.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return fraction ? `${grouped}.${fraction}` : grouped;
}

/**
 * An amount of coins with its unit: `1234.5` or `"1234.5"` → "1,234.5 WEFT". Exact decimal strings (the APIs'
 * `*_exact` fields, formatUnits output) are printed as they are; a JSON number is printed to at most 8 decimals.
 */
export function formatCoins(amount: number | string | bigint | null | undefined): string {
  if (amount === null || amount === undefined) return '–';
  let text: string;
  if (typeof amount === 'bigint') text = formatUnits(amount);
  else if (typeof amount === 'string') text = amount;
  else if (!Number.isFinite(amount)) return '–';
  else text = amount.toFixed(coinDecimals).replace(/\.?0+$/, '');
  return `${groupDecimal(text)} ${coinUnit}`;
}

/** Seconds between two instants as "12 s ago", "5 min ago", "3 h ago", "2 d ago"; a future instant is "just now". */
export function relativeTime(thenMs: number, nowMs: number = Date.now()): string {
  const s = Math.max(0, Math.round((nowMs - thenMs) / 1000));
  if (s < 2) return 'just now';
  if (s < 90) return `${s} s ago`;
  if (s < 90 * 60) return `${Math.round(s / 60)} min ago`;
  if (s < 36 * 3600) return `${Math.round(s / 3600)} h ago`;
  return `${Math.round(s / 86400)} d ago`;
}

const pad2 = (n: number): string => String(n).padStart(2, '0');

/**
 * The local date and time of an instant with its offset from UTC, "2027-01-15 08:00:00 UTC+01:00", written without
 * Intl for the reason formatInteger gives: every list row carries one.
 */
export function localDate(ms: number): string {
  const d = new Date(ms);
  const offset = -d.getTimezoneOffset();
  const zone = `UTC${offset < 0 ? '−' : '+'}${pad2(Math.floor(Math.abs(offset) / 60))}:${pad2(Math.abs(offset) % 60)}`;
  return `${d.getFullYear()}-${pad2(d.getMonth() + 1)}-${pad2(d.getDate())} ${pad2(d.getHours())}:${pad2(d.getMinutes())}:${pad2(d.getSeconds())} ${zone}`;
}

/**
 * A `<time>` showing the relative time, the local date in `title` and the ISO instant in `datetime`. Its
 * `data-ms` lets `refreshTimes` keep "12 s ago" current without redrawing the rows it sits in.
 */
export function timeHtml(ms: number): string {
  if (!Number.isFinite(ms) || ms <= 0) return '<span class="muted">–</span>';
  return `<time datetime="${new Date(ms).toISOString()}" title="${escapeHtml(localDate(ms))}" data-ms="${ms}">${relativeTime(ms)}</time>`;
}

/** Rewrites every `<time data-ms>` under `root` to the current relative time. */
export function refreshTimes(root: ParentNode, nowMs: number = Date.now()): void {
  for (const el of root.querySelectorAll<HTMLTimeElement>('time[data-ms]')) {
    const text = relativeTime(Number(el.dataset.ms), nowMs);
    if (el.textContent !== text) el.textContent = text;
  }
}

/** A run of this many leading zeros or more is elided from a shortened hash. */
const zeroRunMin = 3;

/**
 * "0x3fa9c1d2…9be4d3e2": the start and the end of a hash or an address, for lists. A block hash starts with the
 * proof of work's run of zeros, the same in every hash of a list, so the run is written "0…0" and the head shows
 * the digits after it: "0x0000007c41…" → "0x0…07c41a9e2…9be4d3e2" — what tells the hashes apart (issue 32).
 */
export function shortHash(text: string, head = 10, tail = 8): string {
  if (text.length <= head + tail + 1) return text;
  const zeros = /^0x(0+)/.exec(text)?.[1]?.length ?? 0;
  if (zeros >= zeroRunMin && /^0x[0-9a-f]+$/i.test(text)) return `0x0…0${text.slice(2 + zeros, 2 + zeros + head - 2)}…${text.slice(-tail)}`;
  return `${text.slice(0, head)}…${text.slice(-tail)}`;
}

/**
 * A miner in a list, short enough for a phone's column: the address's data part without its network prefix and
 * its type character (the same in every miner's address), its first and last four characters: "rweft1qx7k2…9fqa"
 * → "x7k2…9fqa". The hue of `minerHue` beside it tells miners apart at a glance.
 */
export function minerLabel(address: string): string {
  const data = address.slice(address.lastIndexOf('1') + 2);
  return data.length <= 9 ? data || address : `${data.slice(0, 4)}…${data.slice(-4)}`;
}

/** A stable hue (0–359) per address: FNV-1a of its text. */
export function minerHue(address: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < address.length; i++) h = Math.imul(h ^ address.charCodeAt(i), 0x01000193) >>> 0;
  return h % 360;
}

/** A miner as a link: a coloured dot of its hue and its short label, the full address in `title`. */
export function minerHtml(address: string): string {
  const dot = `<svg class="miner-dot" aria-hidden="true" focusable="false" width="10" height="10" viewBox="0 0 10 10"><circle cx="5" cy="5" r="5" fill="hsl(${minerHue(address)} 70% 60%)"/></svg>`;
  return `${dot}${linkHtml('address', address, { label: minerLabel(address), copy: false })}`;
}

export type LinkKind = 'block' | 'tx' | 'address' | 'agent' | 'escrow';

/**
 * A hash, address or block as a link, shortened (`short`, for lists) or in full (detail pages), the full text in
 * `title`, and a copy button after it. The button's accessible name says what it copies.
 */
export function linkHtml(kind: LinkKind, value: string, options: { short?: boolean; copy?: boolean; label?: string } = {}): string {
  const text = options.label ?? (options.short ? shortHash(value) : value);
  const link = `<a class="mono hash" href="#/${kind}/${encodeURIComponent(value)}" title="${escapeHtml(value)}">${escapeHtml(text)}</a>`;
  return options.copy === false ? link : `<span class="hash-copy">${link}${copyButtonHtml(value, kind)}</span>`;
}

const copyNames: Readonly<Record<LinkKind | 'text', string>> = { block: 'block hash', tx: 'transaction hash', address: 'address', agent: 'agent account', escrow: 'escrow id', text: 'text' };

/** Two overlapping sheets: drawn, so the button does not depend on a font having a copy glyph. */
const copyIcon = '<svg aria-hidden="true" focusable="false" width="12" height="12" viewBox="0 0 12 12"><rect x="3.5" y="0.5" width="8" height="8" rx="1" fill="none" stroke="currentColor"/><rect x="0.5" y="3.5" width="8" height="8" rx="1" fill="currentColor" stroke="currentColor"/></svg>';

/** A small button that copies `value` (handled by `installCopyButtons`). */
export function copyButtonHtml(value: string, kind: LinkKind | 'text' = 'text'): string {
  return `<button type="button" class="copy" data-copy="${escapeHtml(value)}" aria-label="Copy ${copyNames[kind]} ${escapeHtml(shortHash(value))}" title="Copy">${copyIcon}</button>`;
}

/**
 * One click handler for every copy button under `root`. The Clipboard API needs a secure context (https or
 * localhost); elsewhere the text is selected with a hidden textarea and execCommand. The button says "copied".
 */
export function installCopyButtons(root: HTMLElement): void {
  root.addEventListener('click', (event) => {
    const button = (event.target as Element).closest<HTMLButtonElement>('button[data-copy]');
    if (!button) return;
    const value = button.dataset.copy!;
    const done = (): void => {
      button.textContent = '✓';
      button.title = 'Copied';
      setTimeout(() => ((button.innerHTML = copyIcon), (button.title = 'Copy')), 1500);
    };
    if (navigator.clipboard && window.isSecureContext) {
      void navigator.clipboard.writeText(value).then(done, () => fallbackCopy(value) && done());
    } else if (fallbackCopy(value)) done();
  });
}

function fallbackCopy(value: string): boolean {
  const area = document.createElement('textarea');
  area.value = value;
  area.setAttribute('readonly', '');
  area.setAttribute('aria-hidden', 'true');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.append(area);
  area.select();
  let ok = false;
  try {
    ok = document.execCommand('copy');
  } catch {
    ok = false;
  }
  area.remove();
  return ok;
}
