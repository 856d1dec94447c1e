/**
 * The receipt of an accepted contract transaction (docs/contracts.md "Receipts"): what its VM run did — status, gas
 * used (intrinsic included), the events of a successful run, a revert's message, the return data. The kinds hand it
 * back beside the fee they settled (kind.ts `Paid.receipt`); the ledger keeps it in the node's store under (accepting
 * block, transaction), outside the state trie, so it is not consensus: it changes no root, and a node can rebuild it
 * by replaying the chain. get_transaction shows it and the subscription hub publishes its events.
 */
import type { CallStatus } from '../vm/execute.ts';
import type { ContractEvent } from '../vm/host-functions.ts';
import { fromHex, toHex } from '../util/bytes.ts';

/** `prepare_refused`: a deploy whose code prepare refused (it paid its intrinsic gas; no contract exists). */
type ReceiptStatus = CallStatus | 'prepare_refused';

export interface ContractReceipt {
  readonly contract: Uint8Array;
  /** The method run: the call's, or the constructor's name for a deploy ('' when the code has none or was refused). */
  readonly method: string;
  readonly status: ReceiptStatus;
  /** Intrinsic + VM gas: what the fee is gas_price times. */
  readonly gasUsed: bigint;
  /** Emitted events, in order; only a successful run keeps any. */
  readonly events: readonly ContractEvent[];
  /** A revert's message. */
  readonly message?: string;
  readonly returnData: Uint8Array;
}

interface StoredReceipt {
  c: string;
  m: string;
  s: ReceiptStatus;
  g: string;
  e: [string, string][];
  r: string;
  x?: string;
}

const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder();

/** Node-local storage form (JSON): receipts are not consensus, so a self-describing encoding is enough. */
export function encodeReceipt(r: ContractReceipt): Uint8Array {
  const stored: StoredReceipt = {
    c: toHex(r.contract),
    m: r.method,
    s: r.status,
    g: r.gasUsed.toString(),
    e: r.events.map((e) => [toHex(e.topic), toHex(e.data)]),
    r: toHex(r.returnData),
    ...(r.message === undefined ? {} : { x: r.message }),
  };
  return utf8.encode(JSON.stringify(stored));
}

export function decodeReceipt(bytes: Uint8Array): ContractReceipt {
  const s = JSON.parse(fromUtf8.decode(bytes)) as StoredReceipt;
  return {
    contract: fromHex(s.c),
    method: s.m,
    status: s.s,
    gasUsed: BigInt(s.g),
    events: s.e.map(([topic, data]) => ({ topic: fromHex(topic), data: fromHex(data) })),
    returnData: fromHex(s.r),
    ...(s.x === undefined ? {} : { message: s.x }),
  };
}
