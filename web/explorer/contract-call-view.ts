/**
 * A contract transaction's own rows on its page, decoded for a reader (issue 32): the contract (linked to its
 * viewer), the method called with its arguments decoded from the tagged ABI encoding (`src/vm/abi.ts`: each value
 * carries its type, so no ABI file is needed to read them — an address argument is linked), a deploy's code hash,
 * size, VM version and constructor arguments; and the receipt's event data decoded the same way. Parameters that are
 * not the tagged encoding are shown as hex, said to be raw.
 */
import { encodeAddress } from '../../src/crypto/address.ts';
import { fromHex, toHex } from '../../src/util/bytes.ts';
import { decodeAbiValues, type AbiValue } from '../../src/vm/abi.ts';
import { escapeHtml, formatInteger, linkHtml } from '../lib/format.ts';

const contractKinds = new Set(['contract_call', 'contract_deploy']);
/** Fields these rows show (the generic rows of tx-page.ts leave them out). */
const shownHere = new Set(['contract_address', 'method', 'parameters', 'code_hash', 'code_size', 'vm_version', 'constructor_params']);

const isContractKind = (tx: Record<string, unknown>): boolean => contractKinds.has(String(tx.kind));

/** True for a field the contract rows show instead of the generic rows. */
export function shownByContractRows(tx: Record<string, unknown>, field: string): boolean {
  return isContractKind(tx) && shownHere.has(field);
}

const hrpOf = (address: string): string => address.slice(0, address.lastIndexOf('1'));

/** One decoded value as HTML: its type, then the value (an address linked, bytes as hex, a string quoted). */
function valueHtml(v: AbiValue, hrp: string): string {
  const type = `<span class="muted">${v.type}</span>`;
  if (v.type === 'address') {
    try {
      return `${type} ${linkHtml('address', encodeAddress(hrp, v.value), { short: true, copy: false })}`;
    } catch {
      return `${type} <span class="mono wrap">0x${toHex(v.value)}</span>`;
    }
  }
  if (v.type === 'bytes') return `${type} <span class="mono wrap">0x${toHex(v.value)}</span>`;
  if (v.type === 'string') return `${type} “${escapeHtml(v.value)}”`;
  return `${type} <span class="mono">${escapeHtml(String(v.value))}</span>`;
}

/** Tagged-ABI hex decoded to values, or undefined when it is not that encoding. */
export function decodeParameters(hex: string): AbiValue[] | undefined {
  if (!/^0x([0-9a-f]{2})*$/i.test(hex)) return undefined;
  try {
    return decodeAbiValues(fromHex(hex.slice(2)));
  } catch {
    return undefined;
  }
}

/** A list of arguments as HTML: "none", the decoded values, or the raw hex marked as such. */
export function argumentsHtml(hex: string, hrp: string): string {
  const values = decodeParameters(hex);
  if (values === undefined) return `<span class="mono wrap">${escapeHtml(hex)}</span> <span class="muted">(raw: not the tagged encoding)</span>`;
  if (values.length === 0) return '<span class="muted">none</span>';
  return `<ol class="abi-values">${values.map((v) => `<li>${valueHtml(v, hrp)}</li>`).join('')}</ol>`;
}

/** "transfer(address, u64)": the method with its arguments' types, for the method row. */
function signature(method: string, hex: string): string {
  const types = decodeParameters(hex)?.map((v) => v.type).join(', ') ?? '…';
  return `<strong class="mono" data-field="decoded-method">${escapeHtml(method)}(${escapeHtml(types)})</strong>`;
}

/** The contract rows of a transaction page; none for other kinds. */
export function contractCallRows(tx: Record<string, unknown>): Array<readonly [string, string | undefined]> {
  if (!isContractKind(tx)) return [];
  const address = String(tx.contract_address ?? '');
  const hrp = hrpOf(address);
  const contract = address ? `${linkHtml('address', address)} <a href="#/contract/${encodeURIComponent(address)}">contract viewer</a>` : '–';
  if (tx.kind === 'contract_deploy') {
    const params = String(tx.constructor_params ?? '0x');
    return [
      ['Contract created', contract],
      ['Constructor', `${signature('init', params)}`],
      ['Constructor arguments', argumentsHtml(params, hrp)],
      ['Code', `${formatInteger(Number(tx.code_size))} bytes, VM version ${escapeHtml(String(tx.vm_version))}`],
      ['Code hash', `<span class="mono wrap">${escapeHtml(String(tx.code_hash))}</span>`],
    ];
  }
  const params = String(tx.parameters ?? '0x');
  return [
    ['Contract', contract],
    ['Method', signature(String(tx.method ?? ''), params)],
    ['Arguments', argumentsHtml(params, hrp)],
  ];
}
