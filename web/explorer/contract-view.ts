/**
 * The explorer's contract viewer (#/contract/<address>, docs/contracts.md "Explorer") and the contract section of a
 * transaction page. The viewer reads only public methods: the contract's history (its deploy and calls, each with
 * its receipt), the deploy's bytes (get_transaction_proof) to show the exported methods — the tab prepares the code
 * itself with the VM (src/vm/prepare.ts) and checks its BLAKE3 against the code hash — and get_contract_state.
 *
 * Storage variables: Wasm carries no variable names, so the viewer takes the identifier-like string literals of the
 * code (AssemblyScript stores them UTF-16) as candidates and shows those the node has a value for, with the empty
 * key and with each address the history names (senders and address parameters). The lookup form reads any
 * (variable, key).
 */
import { decodeTransaction } from '../../src/kinds/transaction-codec.ts';
import { TxKind } from '../../src/codec/transaction-kinds.ts';
import type { ContractDeployTransaction } from '../../src/kinds/contract-deploy.ts';
import { blake3 } from '../../src/crypto/blake3.ts';
import { decodeAddress, encodeAddress } from '../../src/crypto/address.ts';
import { fromHex, toHex } from '../../src/util/bytes.ts';
import { decodeAbiValues } from '../../src/vm/abi.ts';
import { prepare } from '../../src/vm/prepare.ts';
import { getContractState, getTransactionHistory, getTransactionProof } from '../../packages/client/src/index.ts';
import type { RpcClient } from '../lib/node-client.ts';
import { escapeHtml, formatCoins, formatInteger, linkHtml } from '../lib/format.ts';
import { argumentsHtml, decodeParameters } from './contract-call-view.ts';
import { readContractForm, wireReadContract } from './contract-read.ts';

interface ContractViewContext {
  readonly client: RpcClient;
  readonly body: HTMLElement;
  readonly title: HTMLElement;
}

interface Receipt {
  contract_address: string;
  method: string;
  status: string;
  gas_used: number;
  events: { topic: string; topic_text: string | null; data: string }[];
  return_value: { type: string; value: string | boolean }[] | null;
  revert_message: string | null;
}

const contractAddressType = 0x10;
const historyLimit = 50;
const candidatesMax = 12;
const probeKeysMax = 6;
/** Names AssemblyScript's runtime leaves in every module's data (its source files): never storage variables. */
const runtimeNames = new Set(['lib', 'stub', 'arraybuffer', 'typedarray', 'string', 'rt', 'tlsf', 'itcms', 'incremental']);

const hrpOf = (address: string): string => address.slice(0, address.lastIndexOf('1'));

/** Whether `address` is a contract address of its network (type byte 0x10). */
export function isContractAddress(address: string): boolean {
  try {
    return decodeAddress(address, hrpOf(address))[0] === contractAddressType;
  } catch {
    return false;
  }
}

/** Identifier-like UTF-16LE string literals of a module, in order, without repeats. */
export function storageNameCandidates(code: Uint8Array): string[] {
  const found: string[] = [];
  let run = '';
  const flush = (): void => {
    if (/^[A-Za-z_][A-Za-z0-9_]{2,63}$/.test(run) && !runtimeNames.has(run) && !found.includes(run)) found.push(run);
    run = '';
  };
  // Even offsets, then odd ones: a literal may start at either byte parity.
  for (const parity of [0, 1]) {
    for (let i = parity; i + 1 < code.length; i += 2) {
      const ch = code[i + 1] === 0 ? String.fromCharCode(code[i]!) : '';
      if (/[A-Za-z0-9_]/.test(ch)) run += ch;
      else flush();
    }
    flush();
  }
  return found.slice(0, candidatesMax);
}

/** A stored value: hex, and as an unsigned integer when it is 8 bytes (the SDK's u64, little-endian). */
function valueText(hex: string): string {
  const bytes = fromHex(hex.slice(2));
  if (bytes.length !== 8) return hex;
  const n = new DataView(bytes.buffer, bytes.byteOffset).getBigUint64(0, true);
  return `${n} (${hex})`;
}

export function receiptHtml(receipt: Receipt): string {
  const hrp = hrpOf(receipt.contract_address);
  // Event data in the tagged encoding reads as typed values (addresses linked); anything else stays hex.
  const events = receipt.events.map((e) => `<li data-event="${escapeHtml(e.topic_text ?? e.topic)}"><span class="mono">${escapeHtml(e.topic_text ?? e.topic)}</span> ${decodeParameters(e.data) ? argumentsHtml(e.data, hrp) : `<span class="mono muted wrap">${escapeHtml(e.data)}</span>`}</li>`).join('');
  const returned = receipt.return_value ? receipt.return_value.map((v) => `${v.type} ${String(v.value)}`).join(', ') : '—';
  return `<table class="fields contract-receipt">
<tr><th style="width:30%">contract</th><td class="mono"><a href="#/contract/${escapeHtml(receipt.contract_address)}">${escapeHtml(receipt.contract_address)}</a></td></tr>
<tr><th>method</th><td class="mono" data-field="method">${escapeHtml(receipt.method || '(none)')}</td></tr>
<tr><th>status</th><td data-field="status" class="${receipt.status === 'ok' ? 'ok' : 'warn'}">${escapeHtml(receipt.status)}</td></tr>
<tr><th>gas used</th><td data-field="gas_used">${receipt.gas_used}</td></tr>
${receipt.revert_message === null ? '' : `<tr><th>revert message</th><td>${escapeHtml(receipt.revert_message)}</td></tr>`}
<tr><th>returned</th><td class="mono">${escapeHtml(returned)}</td></tr>
<tr><th>events</th><td><ul>${events || '<li class="muted">none</li>'}</ul></td></tr>
</table>`;
}

/**
 * A contract transaction's gas rows, as Etherscan shows them: the gas price in coins (and base units per gas), and
 * "Gas limit & usage" — the limit, the gas used and its share of the limit. Empty for other transactions; the used
 * part only once a receipt says it. The `fee` row beside them is what the transaction paid (gas used × gas price)
 * once accepted, the most it may pay (`max_fee`) before.
 */
export function gasRows(tx: Record<string, unknown>): Array<readonly [string, string]> {
  if (typeof tx.gas_limit !== 'number') return [];
  const limit = tx.gas_limit;
  const used = typeof tx.gas_used === 'number' ? tx.gas_used : (tx.receipt as Receipt | undefined)?.gas_used;
  const units = typeof tx.gas_price_units === 'string' ? ` <span class="muted">(${formatInteger(Number(tx.gas_price_units))} base units per gas)</span>` : '';
  const share = used === undefined || limit === 0 ? '' : ` (${((used / limit) * 100).toFixed(2)}%)`;
  return [
    ['Gas price', `${formatCoins(typeof tx.gas_price_exact === 'string' ? tx.gas_price_exact : undefined)}${units}`],
    ['Gas limit & usage', `<span data-field="gas_usage">${formatInteger(limit)} | ${used === undefined ? '<span class="muted">not run yet</span>' : `${formatInteger(used)}${share}`}</span>`],
  ];
}

/** Fields gasRows and the Fee row show, which the page's generic rows must not repeat. */
export const gasFields = ['gas_limit', 'gas_used', 'gas_price', 'gas_price_exact', 'gas_price_units', 'max_fee', 'max_fee_exact'];

/** The contract section of a transaction page, or '' for other transactions. */
export function transactionContractSection(tx: Record<string, unknown>): string {
  const receipt = tx.receipt as Receipt | undefined;
  if (receipt) return `<h3>Contract ${tx.kind === 'contract_deploy' ? 'deploy' : 'call'}</h3>${receiptHtml(receipt)}`;
  if (tx.kind === 'contract_call' || tx.kind === 'contract_deploy') {
    return `<h3>Contract</h3><p class="muted">No receipt yet (pending or not accepted). <a href="#/contract/${escapeHtml(String(tx.contract_address))}">contract viewer</a></p>`;
  }
  return '';
}

/** Addresses the history names: senders, and address parameters of calls (the token keys balances by them). */
function addressesIn(history: Record<string, unknown>[], hrp: string): string[] {
  const out: string[] = [];
  const add = (a: string): void => {
    if (!out.includes(a) && !isContractAddress(a)) out.push(a);
  };
  for (const tx of history) {
    add(String(tx.from));
    try {
      const params = String(tx.parameters ?? tx.constructor_params ?? '0x');
      for (const v of decodeAbiValues(fromHex(params.slice(2)))) if (v.type === 'address') add(encodeAddress(hrp, v.value));
    } catch {
      // parameters that are not the tagged encoding name no address
    }
  }
  return out.slice(0, probeKeysMax - 1);
}

async function codeOf(client: RpcClient, deployHash: string): Promise<Uint8Array | undefined> {
  const proof = await getTransactionProof(client, { hash: deployHash });
  const tx = decodeTransaction(fromHex(String(proof.transaction).slice(2)));
  return tx.kind === TxKind.ContractDeploy ? (tx as ContractDeployTransaction).code : undefined;
}

function lookupForm(address: string): string {
  return `<h3>State lookup</h3><form id="contract-lookup" class="inline-form">
<label>variable <input name="variable" required pattern="[A-Za-z0-9_]{1,64}" autocomplete="off"></label>
<label>key <input name="key" placeholder="empty, 0x-hex, an address or text" autocomplete="off"></label>
<button type="submit">Read</button></form><div id="contract-lookup-result" aria-live="polite" data-contract="${escapeHtml(address)}"></div>`;
}

function wireLookup(ctx: ContractViewContext, address: string): void {
  const form = ctx.body.querySelector<HTMLFormElement>('#contract-lookup');
  const out = ctx.body.querySelector<HTMLElement>('#contract-lookup-result');
  form?.addEventListener('submit', (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const variable = String(data.get('variable') ?? '');
    const key = String(data.get('key') ?? '');
    out!.textContent = 'reading…';
    getContractState(ctx.client, { contract_address: address, variable_name: variable, key, proof: false })
      .then((r) => {
        out!.innerHTML = r.exists
          ? `<p><span class="mono">${escapeHtml(variable)}[${escapeHtml(key || '""')}]</span> = <strong class="mono" id="lookup-value">${escapeHtml(valueText(r.value!))}</strong></p>`
          : `<p class="muted" id="lookup-value">no value stored at ${escapeHtml(variable)}[${escapeHtml(key || '""')}]</p>`;
      })
      .catch((error: Error) => {
        out!.innerHTML = `<div class="error-box" role="alert">${escapeHtml(error.message)}</div>`;
      });
  });
}

export async function renderContract(address: string, ctx: ContractViewContext): Promise<void> {
  ctx.title.innerHTML = `Contract <span class="address mono">${escapeHtml(address)}</span>`;
  const history = (await getTransactionHistory(ctx.client, { address, limit: historyLimit })).transactions as Record<string, unknown>[];
  const deploy = history.find((t) => t.kind === 'contract_deploy' && t.contract_address === address);
  const hrp = hrpOf(address);

  let summary = '<p class="muted">The deploy of this contract is not in its recent history.</p>';
  let variables = '';
  let read = '';
  if (deploy) {
    const code = await codeOf(ctx.client, String(deploy.hash));
    let methods = '<li class="muted">code unavailable</li>';
    let hashCheck = '';
    if (code) {
      const matches = `0x${toHex(blake3(code))}` === deploy.code_hash;
      hashCheck = matches ? ' <span class="ok">✓ BLAKE3 of the deployed bytes</span>' : ' <span class="warn">✗ the deployed bytes do not hash to it</span>';
      const entries = prepare(code, Number(deploy.vm_version)).entryPoints.filter((e) => !e.startsWith('__'));
      read = readContractForm(entries);
      methods = entries.map((m) => `<li class="mono" data-method="${escapeHtml(m)}">${escapeHtml(m)}${m === 'init' ? ' <span class="muted">(constructor)</span>' : ''}</li>`).join('');
      const keys = ['', ...addressesIn(history, hrp)];
      const probes = storageNameCandidates(code).flatMap((variable) => keys.map((key) => ({ variable, key })));
      const found = await Promise.all(
        probes.map(async (p) => ({ ...p, r: await getContractState(ctx.client, { contract_address: address, variable_name: p.variable, key: p.key, proof: false }).catch(() => undefined) })),
      );
      const rows = found.filter((f) => f.r?.exists).map((f) => `<tr data-variable="${escapeHtml(f.variable)}"><td class="mono" data-label="variable">${escapeHtml(f.variable)}</td><td class="mono" data-label="key">${escapeHtml(f.key || '""')}</td><td class="mono" data-label="value">${escapeHtml(valueText(f.r!.value!))}</td></tr>`);
      variables = `<h3>Storage variables</h3><table id="contract-storage" class="stack"><thead><tr><th scope="col">variable</th><th scope="col">key</th><th scope="col">value</th></tr></thead>${rows.join('') || '<tr><td colspan="3" class="muted">none found</td></tr>'}</table>`;
    }
    summary = `<table id="contract-summary" class="fields">
<tr><th style="width:30%">code hash</th><td class="mono" id="contract-code-hash">${escapeHtml(String(deploy.code_hash))}${hashCheck}</td></tr>
<tr><th>code size</th><td id="contract-code-size">${Number(deploy.code_size)} bytes</td></tr>
<tr><th>deployer</th><td class="mono"><a href="#/address/${escapeHtml(String(deploy.from))}">${escapeHtml(String(deploy.from))}</a></td></tr>
<tr><th>deploy</th><td class="mono"><a href="#/tx/${escapeHtml(String(deploy.hash))}">${escapeHtml(String(deploy.hash))}</a></td></tr>
</table><h3>Methods</h3><ul id="contract-methods">${methods}</ul>`;
  }

  const calls = history.filter((t) => t.receipt).map((t) => {
    const r = t.receipt as Receipt;
    const events = r.events.map((e) => escapeHtml(e.topic_text ?? e.topic)).join(', ') || '—';
    return `<tr><td class="mono" data-label="transaction">${linkHtml('tx', String(t.hash), { short: true, copy: false })}</td><td class="mono" data-label="method">${escapeHtml(r.method || '(deploy)')}</td><td data-label="status" class="${r.status === 'ok' ? 'ok' : 'warn'}">${escapeHtml(r.status)}</td><td data-label="gas used">${formatInteger(r.gas_used)}</td><td data-label="events">${events}</td></tr>`;
  });
  const recent = `<h3>Recent calls and events</h3><table id="contract-calls" class="stack"><thead><tr><th scope="col">transaction</th><th scope="col">method</th><th scope="col">status</th><th scope="col">gas used</th><th scope="col">events</th></tr></thead>${calls.join('') || '<tr><td colspan="5" class="muted">none accepted yet</td></tr>'}</table>`;
  ctx.body.innerHTML = `${summary}${read}${variables}${recent}${lookupForm(address)}`;
  wireLookup(ctx, address);
  if (deploy) wireReadContract(ctx.client, ctx.body, address, String(deploy.from));
}
