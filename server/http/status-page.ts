/**
 * The node's status page at GET / without a build, and at /status (polls /health). Its script is /status.js: the CSP
 * (security-headers.ts) runs no inline script. It shows /health as a person reads it — sections (node, chain, sync,
 * mining, pruning), words for the fields, numbers with separators, yes / no, the uptime in hours and minutes —
 * instead of a JSON dump (issue 32). A client that asks for JSON (`Accept: application/json`, not HTML) gets the
 * /health object itself at /status (`prefersJson`).
 */
export const statusPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="description" content="This Weft node's status: network, height, peers, mempool and sync, read from its own JSON-RPC API.">
<title>Weft node</title>
<style>body{font:16px system-ui,sans-serif;margin:2rem auto;max-width:40rem;padding:0 1rem}h2{font-size:1.05rem;margin:1.2rem 0 .4rem}dl{display:grid;grid-template-columns:minmax(8rem,auto) 1fr;gap:.25rem 1rem;margin:0}dt{font-weight:600}dd{margin:0;font-variant-numeric:tabular-nums;overflow-wrap:anywhere}.mono{font-family:monospace}.ok{color:#1a7f37}.warn{color:#9a6700}</style>
</head><body><h1>Weft node</h1><p id="summary" role="status"></p><div id="status" aria-live="polite"></div>
<p><a href="/">Explorer</a> · <a href="/health">the same as JSON</a></p>
<script type="module" src="/status.js"></script></body></html>`;

/** True when the client asks for JSON rather than a page: `Accept` names application/json and not text/html. */
export function prefersJson(accept: string | undefined): boolean {
  const types = (accept ?? '').toLowerCase();
  return /application\/json/.test(types) && !/text\/html/.test(types);
}

/** The status page's script (served at /status.js). */
export const statusScript = `const box = document.getElementById('status');
const summary = document.getElementById('summary');
const labels = { tip_hash: 'tip hash', blue_score: 'blue score', uptime_seconds: 'uptime', blocks_found: 'blocks found', hashes: 'hashes tried' };
const label = (k) => labels[k] ?? k.replace(/_/g, ' ');
function uptime(s) {
  const d = Math.floor(s / 86400), h = Math.floor(s / 3600) % 24, m = Math.floor(s / 60) % 60;
  return d ? d + ' d ' + h + ' h' : h ? h + ' h ' + m + ' min' : m ? m + ' min ' + (s % 60) + ' s' : s + ' s';
}
function text(k, v) {
  if (v === null || v === undefined) return '–';
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  if (k === 'uptime_seconds') return uptime(v);
  if (typeof v === 'number') return v.toLocaleString('en');
  return String(v);
}
function list(entries) {
  const dl = document.createElement('dl');
  for (const [k, v] of entries) {
    const dt = document.createElement('dt'); dt.textContent = label(k);
    const dd = document.createElement('dd'); dd.textContent = text(k, v);
    if (typeof v === 'string' && /^0x[0-9a-f]+$/.test(v)) dd.className = 'mono';
    dl.append(dt, dd);
  }
  return dl;
}
function section(title, entries) {
  const h = document.createElement('h2'); h.textContent = title;
  return [h, list(entries)];
}
async function refresh() {
  const health = await (await fetch('/health')).json();
  const flat = Object.entries(health).filter(([, v]) => typeof v !== 'object' || v === null);
  const nested = Object.entries(health).filter(([, v]) => typeof v === 'object' && v !== null);
  summary.textContent = (health.synced ? 'Synced' : 'Syncing') + ' ' + health.network + ' node at height ' + text('height', health.height) + ', ' + text('peers', health.peers) + ' peers';
  summary.className = health.synced ? 'ok' : 'warn';
  box.replaceChildren(...section('Node and chain', flat), ...nested.flatMap(([k, v]) => section(label(k), Object.entries(v))));
}
refresh(); setInterval(refresh, 1000);
`;
