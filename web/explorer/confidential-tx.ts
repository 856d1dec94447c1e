/**
 * The explorer's view of confidential transactions (docs/privacy.md "Mempool, fees and views"): exactly what the
 * chain makes public and nothing more. For a ring spend: each input's key image, pseudo-output commitment and ring
 * members (each linked to its output page), each output's one-time key, view tag, commitment and the fact that its
 * amount is encrypted — never a sender, never a hidden amount. A shield shows its sender and public amounts (it is
 * `medium`); an unshield its transparent recipient and amount. The output page (`#/output/0x<one-time key>`) shows
 * the stored output record, proven against a header this tab's light node verified.
 */
import { formatUnits } from '../../src/crypto/amount.ts';
import { verifyRecordProof } from '../../src/light/verify-account.ts';
import { fromHex, strip0x } from '../../src/util/bytes.ts';
import { getProof } from '../../packages/client/src/index.ts';
import { escapeHtml, formatCoins, formatInteger, linkHtml } from '../lib/format.ts';
import { checkWhenHeaderKnown } from '../light/proof-wait.ts';
import { fieldsTable, showNothingFound, type PageContext } from './page-context.ts';

const confidentialKinds = new Set(['shield', 'confidential_transfer', 'unshield']);
/** Fields this section shows (the generic rows of tx-page.ts leave them out). */
const sectionFields = new Set(['tx_public_key', 'inputs', 'outputs', 'ring_size']);

interface RingInput {
  readonly ring?: unknown;
  readonly key_image?: unknown;
  readonly pseudo_out?: unknown;
}
interface StealthOutput {
  readonly one_time_key?: unknown;
  readonly view_tag?: unknown;
  readonly commitment?: unknown;
  readonly encrypted_amount?: unknown;
  readonly amount_exact?: unknown;
}

const hex = (value: unknown): string => (typeof value === 'string' && /^(0x)?[0-9a-f]+$/.test(value) ? `0x${strip0x(value)}` : '');
const mono = (value: unknown): string => `<span class="mono wrap">${escapeHtml(hex(value) || '–')}</span>`;
const outputLink = (key: unknown): string => {
  const k = hex(key);
  return k ? `<a class="mono hash" href="#/output/${k}" title="${k}">${escapeHtml(k)}</a>` : '–';
};

export function isConfidentialKind(tx: Record<string, unknown>): boolean {
  return confidentialKinds.has(String(tx.kind));
}

/** True for a field the confidential section shows instead of the generic rows. */
export function shownByConfidentialSection(tx: Record<string, unknown>, field: string): boolean {
  return isConfidentialKind(tx) && sectionFields.has(field);
}

function inputsHtml(inputs: readonly RingInput[]): string {
  return inputs
    .map((input, i) => {
      const ring = Array.isArray(input.ring) ? input.ring : [];
      return `<section class="confidential-input" aria-labelledby="ring-${i}-title"><h4 id="ring-${i}-title">Input ${i + 1}: ring of ${ring.length}</h4>${fieldsTable([
        ['Key image', mono(input.key_image)],
        ['Pseudo-output commitment', mono(input.pseudo_out)],
      ])}<ol class="ring-members" aria-label="Ring members of input ${i + 1}">${ring.map((m) => `<li>${outputLink(m)}</li>`).join('')}</ol></section>`;
    })
    .join('');
}

function outputsHtml(outputs: readonly StealthOutput[]): string {
  const rows = outputs.map((o, i) => {
    const amount = typeof o.amount_exact === 'string' ? formatCoins(o.amount_exact) : '<span class="muted">hidden (encrypted)</span>';
    const commitment = typeof o.commitment === 'string' ? mono(o.commitment) : '<span class="muted">of the public amount (mask 1)</span>';
    return `<tr><td class="num" data-label="#">${i}</td><td data-label="One-time key">${outputLink(o.one_time_key)}</td><td class="num" data-label="View tag">${escapeHtml(String(o.view_tag ?? '–'))}</td><td data-label="Commitment">${commitment}</td><td data-label="Amount">${amount}</td></tr>`;
  });
  return `<table id="confidential-outputs" class="stack" aria-label="Stealth outputs"><thead><tr><th scope="col">#</th><th scope="col">One-time key</th><th scope="col">View tag</th><th scope="col">Commitment</th><th scope="col">Amount</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

/** The section for a confidential transaction's page; empty for any other kind. */
export function confidentialTxSection(tx: Record<string, unknown>): string {
  if (!isConfidentialKind(tx)) return '';
  const inputs = (Array.isArray(tx.inputs) ? tx.inputs : []) as RingInput[];
  const outputs = (Array.isArray(tx.outputs) ? tx.outputs : []) as StealthOutput[];
  const hidden = tx.kind === 'shield' ? 'the recipients (one-time keys only)' : tx.kind === 'unshield' ? 'the sender (a ring hides which output paid) and any change' : 'the sender, the recipients and every amount';
  return `<section id="confidential" aria-labelledby="confidential-title"><h3 id="confidential-title">What is public</h3>${fieldsTable([
    ['Privacy level', escapeHtml(String(tx.privacy_level))],
    ['Ring size', tx.ring_size === undefined ? undefined : formatInteger(Number(tx.ring_size))],
    ['Transaction public key', mono(tx.tx_public_key)],
    ['Hidden', escapeHtml(hidden)],
  ], 'confidential-fields')}${inputsHtml(inputs)}${outputs.length > 0 ? outputsHtml(outputs) : ''}</section>`;
}

/** `#/output/0x<one-time key>`: a confidential output's stored record, proven against a verified header. */
export async function renderOutputPage(ctx: PageContext, arg: string): Promise<void> {
  if (!/^0x[0-9a-f]{64}$/.test(arg)) return showNothingFound(ctx, 'confidential output', arg, 'An output is named by its one-time key: 0x and 64 hex digits.');
  const outcome = await checkWhenHeaderKnown(
    async () => ({ chain: (await ctx.light).chain, proof: await getProof(ctx.client, { namespace: 'confidential_output', id: arg }) }),
    ({ chain, proof }) => verifyRecordProof(chain, 'confidential_output', fromHex(arg.slice(2)), proof),
  );
  if (!ctx.current()) return;
  ctx.title.textContent = 'Confidential output';
  if (!outcome.ok) {
    ctx.body.innerHTML = `<div class="error-box" role="alert">Output proof rejected (${escapeHtml(outcome.error.reason)}): ${escapeHtml(outcome.error.message)}</div>`;
    return;
  }
  const proven = outcome.value;
  const record = proven.record;
  const where = `checked against verified block ${formatInteger(proven.blockHeight)} (${linkHtml('block', proven.blockHash, { short: true, copy: false })})`;
  if (record === null) {
    ctx.body.innerHTML = `<p id="output-proof">No unspent-set entry: the state holds no output with this one-time key, ${where}.</p>`;
    return;
  }
  const amount = record.amountKind === 'public' ? formatCoins(formatUnits(new DataView(record.amount.buffer, record.amount.byteOffset, 8).getBigUint64(0, true))) : '<span class="muted">hidden (encrypted)</span>';
  ctx.body.innerHTML = `<p class="ok" id="output-proof">✓ output record ${where}</p>${fieldsTable([
    ['One-time key', mono(arg)],
    ['Commitment', mono(Array.from(record.commitment, (b) => b.toString(16).padStart(2, '0')).join(''))],
    ['View tag', escapeHtml(String(record.viewTag))],
    ['Amount', amount],
    ['Created at DAA score', formatInteger(Number(record.createdDaaScore))],
  ], 'output-fields')}<p class="muted">Whether this output is spent is not public: a spend shows a key image, which only its owner can link to it.</p>`;
}
