/** The small status page at GET / without a build, and at /status (polls /health). Its script is /status.js: the CSP (security-headers.ts) runs no inline script. */
export const statusPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="description" content="This Weft node's status: network, height, peers, mempool and sync, read from its own JSON-RPC API.">
<title>Weft node</title>
<style>body{font:16px system-ui,sans-serif;margin:2rem auto;max-width:40rem;padding:0 1rem}dt{font-weight:600}dd{margin:0 0 .5rem;font-family:monospace;overflow-wrap:anywhere}</style>
</head><body><h1>Weft node</h1><dl id="status" aria-live="polite"></dl>
<script type="module" src="/status.js"></script></body></html>`;

/** The status page's script (served at /status.js). */
export const statusScript = `const el = document.getElementById('status');
async function refresh() {
  const health = await (await fetch('/health')).json();
  el.replaceChildren(...Object.entries(health).flatMap(([k, v]) => {
    const dt = document.createElement('dt'); dt.textContent = k;
    const dd = document.createElement('dd'); dd.textContent = typeof v === 'object' ? JSON.stringify(v) : String(v);
    return [dt, dd];
  }));
}
refresh(); setInterval(refresh, 1000);
`;
