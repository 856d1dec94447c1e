/**
 * The OAuth consent page (docs/auth.md "Approving a client"): names the client, lists the scopes it asks for in plain
 * words, and asks for the node's admin credential (the key in `<datadir>/api.cookie`) to approve. Everything
 * interpolated is escaped; the page may not be framed (clickjacking) and its form may only post here.
 */
import type { Scope } from '../../src/auth/scopes.ts';

const scopeDescriptions: Readonly<Record<Scope, string>> = {
  read_balance: 'See balances and transaction history of this node’s wallet addresses',
  send_transactions: 'Send transactions, create addresses and sign messages with this node’s wallet',
  mine_blocks: 'Start and stop mining on this node',
};

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);

export interface ConsentView {
  readonly clientName: string;
  readonly clientId: string;
  readonly redirectUri: string;
  readonly scopes: readonly Scope[];
  /** Hidden fields that carry the authorization request through the POST. */
  readonly fields: Readonly<Record<string, string>>;
  readonly error?: string;
}

export function consentPage(view: ConsentView): string {
  const hidden = Object.entries(view.fields)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('\n      ');
  const scopes = view.scopes.map((s) => `<li><code>${s}</code> — ${escapeHtml(scopeDescriptions[s])}</li>`).join('\n        ');
  const host = new URL(view.redirectUri).host;
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Authorize ${escapeHtml(view.clientName)} — Weft node</title>
  <style>
    body { font: 16px/1.5 system-ui, sans-serif; max-width: 34rem; margin: 3rem auto; padding: 0 1rem; color: #1b1f24; }
    .card { border: 1px solid #d0d7de; border-radius: 8px; padding: 1.5rem; }
    .error { color: #b42318; background: #fef3f2; border-radius: 6px; padding: .5rem .75rem; }
    label { display: block; margin: 1rem 0 .25rem; font-weight: 600; }
    input[type=password] { width: 100%; padding: .5rem; box-sizing: border-box; }
    .buttons { display: flex; gap: .75rem; margin-top: 1.25rem; }
    button { padding: .5rem 1.25rem; border-radius: 6px; border: 1px solid #d0d7de; background: #f6f8fa; cursor: pointer; }
    button[value=approve] { background: #1f883d; color: white; border-color: #1f883d; }
    small { color: #59636e; }
  </style>
</head>
<body>
  <main class="card">
    <h1>Authorize ${escapeHtml(view.clientName)}</h1>
    <p><strong>${escapeHtml(view.clientName)}</strong> <small>(client ${escapeHtml(view.clientId)})</small> asks for access to this node:</p>
    <ul>
        ${scopes}
    </ul>
    <p><small>After you decide you return to <strong>${escapeHtml(host)}</strong>.</small></p>
    ${view.error ? `<p class="error" role="alert">${escapeHtml(view.error)}</p>` : ''}
    <form method="post" action="/oauth/authorize">
      ${hidden}
      <label for="admin_key">Node admin key <small>(in <code>api.cookie</code> in the node's data directory)</small></label>
      <input id="admin_key" name="admin_key" type="password" autocomplete="off">
      <div class="buttons">
        <button type="submit" name="decision" value="approve">Approve</button>
        <button type="submit" name="decision" value="deny">Deny</button>
      </div>
    </form>
  </main>
</body>
</html>`;
}

export function errorPage(title: string, detail: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)} — Weft node</title></head>
<body style="font: 16px/1.5 system-ui, sans-serif; max-width: 34rem; margin: 3rem auto;">
  <h1>${escapeHtml(title)}</h1>
  <p role="alert">${escapeHtml(detail)}</p>
</body></html>`;
}
