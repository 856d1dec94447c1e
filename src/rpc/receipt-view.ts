/**
 * The JSON of a contract receipt (docs/api.md "Transaction" → `receipt`) and of one contract event (the
 * `contract_events` subscription): hex bytes, the topic also as text when it is printable ASCII (SDK events name
 * themselves: "Transfer", "incremented"), the return data also decoded when it is the tagged encoding.
 */
import { encodeAddress } from '../crypto/address.ts';
import type { ContractReceipt } from '../kinds/contract-receipt.ts';
import { toHex } from '../util/bytes.ts';
import { decodeAbiValues } from '../vm/abi.ts';
import type { ContractEvent } from '../vm/host-functions.ts';
import { abiValuesToJson } from './contract-support.ts';

const printable = /^[\x20-\x7e]+$/;

export function contractEventJson(event: ContractEvent): { topic: string; topic_text: string | null; data: string } {
  const text = new TextDecoder().decode(event.topic);
  return { topic: `0x${toHex(event.topic)}`, topic_text: printable.test(text) ? text : null, data: `0x${toHex(event.data)}` };
}

function returnValue(data: Uint8Array, hrp: string): ReturnType<typeof abiValuesToJson> | null {
  if (data.length === 0) return null;
  try {
    return abiValuesToJson(decodeAbiValues(data), hrp);
  } catch {
    return null; // not the tagged encoding: the hex says it all
  }
}

export function receiptJson(receipt: ContractReceipt, hrp: string): Record<string, unknown> {
  return {
    contract_address: encodeAddress(hrp, receipt.contract),
    method: receipt.method,
    status: receipt.status,
    gas_used: Number(receipt.gasUsed),
    events: receipt.events.map(contractEventJson),
    return_data: `0x${toHex(receipt.returnData)}`,
    return_value: returnValue(receipt.returnData, hrp),
    revert_message: receipt.message ?? null,
  };
}
