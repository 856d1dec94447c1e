/**
 * "Read contract" on the contract viewer (issue 32): pick an exported method, give its arguments, and read what it
 * returns from a dry run (`call_smart_contract` with `dry_run: true`, a public read: nothing is signed or sent).
 * Arguments are comma-separated and typed as the node reads them: a decimal number is a u64, an address of the
 * network an address, 0x-hex bytes, `true`/`false` a bool, other text a string. A method that would write, emit
 * or transfer says so: the dry run shows what it would return, the chain is unchanged.
 */
import { callSmartContract } from '../../packages/client/src/index.ts';
import type { RpcClient } from '../lib/node-client.ts';
import { escapeHtml, formatInteger } from '../lib/format.ts';

/** The form, one option per exported method (the constructor and runtime exports left out). */
export function readContractForm(methods: readonly string[]): string {
  const options = methods.filter((m) => m !== 'init' && !m.startsWith('__')).map((m) => `<option value="${escapeHtml(m)}">${escapeHtml(m)}</option>`);
  if (options.length === 0) return '';
  return `<h3>Read contract</h3><form id="contract-read" class="row">
<label>method <select name="method">${options.join('')}</select></label>
<label>arguments <input name="args" placeholder="comma-separated: 42, an address, 0x…" autocomplete="off"></label>
<button type="submit">Read</button></form><div id="contract-read-result" aria-live="polite"></div>`;
}

/** Splits "a, 42, true" into the JSON values the node types (numbers stay decimal strings: u64 beyond 2^53). */
function readArguments(text: string): Array<string | boolean> {
  return text.split(',').map((s) => s.trim()).filter((s) => s !== '').map((s) => (s === 'true' ? true : s === 'false' ? false : s));
}

export function wireReadContract(client: RpcClient, body: HTMLElement, address: string, caller: string): void {
  const form = body.querySelector<HTMLFormElement>('#contract-read');
  const out = body.querySelector<HTMLElement>('#contract-read-result');
  if (!form || !out) return;
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const method = String(data.get('method') ?? '');
    out.textContent = 'reading…';
    callSmartContract(client, { contract_address: address, method, parameters: readArguments(String(data.get('args') ?? '')), caller_address: caller, dry_run: true })
      .then((r) => {
        const values = r.return_value.map((v) => `${v.type} ${String(v.value)}`).join(', ') || 'nothing';
        const writes = r.events.length > 0 ? ' <span class="warn">(this method changes state: a dry run, nothing was sent)</span>' : '';
        out.innerHTML = `<p><span class="mono">${escapeHtml(method)}</span> returned <strong class="mono" id="read-value">${escapeHtml(values)}</strong> <span class="muted">(gas ${formatInteger(r.gas_used)})</span>${writes}</p>`;
      })
      .catch((error: Error) => {
        out.innerHTML = `<div class="error-box" role="alert">${escapeHtml(error.message)}</div>`;
      });
  });
}
