/**
 * The postMessage protocol between <weft-wallet> (in the embedding page) and widget.html (in an iframe of the node's
 * origin). Every message is a small JSON-clonable object tagged `weft: "widget/v1"`; each side checks the sender's
 * origin and window before parsing (docs/widget.md), and parses with these total functions (bad input → undefined).
 */
import { escrowTaskCharsMax, escrowTimeoutBlocksMax, widgetMemoCharsMax, widgetMessageCharsMax } from '../wallet/wallet-web-limits.ts';

export const widgetProtocol = 'widget/v1';

/** Embedding page → widget. */
export interface PaymentRequestMessage {
  readonly weft: typeof widgetProtocol;
  readonly type: 'request_payment';
  readonly id: number;
  readonly to: string;
  /** Coins as decimal text (at most 8 decimals). */
  readonly amount: string;
  readonly memo?: string;
}

/**
 * Embedding page → widget: lock `amount` coins in an escrow for an agent account and a task (docs/settlement.md
 * "Escrows"; docs/widget.md "Escrow requests"). `taskId` is text (BLAKE3-hashed) or a 0x 32-byte hash; the timeout
 * and dispute window are blocks after the widget's verified tip.
 */
export interface EscrowRequestMessage {
  readonly weft: typeof widgetProtocol;
  readonly type: 'request_escrow';
  readonly id: number;
  readonly agentAccount: string;
  /** Coins as decimal text (at most 8 decimals). */
  readonly amount: string;
  readonly taskId: string;
  readonly timeoutBlocks: number;
  readonly disputeWindow?: number;
  readonly arbiter?: string;
}

/** Widget → embedding page. Nothing about the wallet (addresses, balance) is sent unless the user pays. */
export type WidgetMessage =
  | { readonly weft: typeof widgetProtocol; readonly type: 'status'; readonly state: 'no_wallet' | 'locked' | 'ready' }
  | { readonly weft: typeof widgetProtocol; readonly type: 'payment_result'; readonly id: number; readonly hash: string }
  | { readonly weft: typeof widgetProtocol; readonly type: 'escrow_result'; readonly id: number; readonly escrowId: string; readonly hash: string }
  | { readonly weft: typeof widgetProtocol; readonly type: 'payment_error'; readonly id: number; readonly code: PaymentErrorCode; readonly message: string };

/** `agent_unknown` / `agent_frozen`: an escrow request for an address with no agent account / a frozen one (verified). */
export type PaymentErrorCode = 'rejected' | 'invalid_request' | 'busy' | 'failed' | 'agent_unknown' | 'agent_frozen';

const small = (data: unknown): boolean => {
  try {
    return JSON.stringify(data).length <= widgetMessageCharsMax;
  } catch {
    return false;
  }
};
const isObject = (data: unknown): data is Record<string, unknown> => typeof data === 'object' && data !== null && !Array.isArray(data);

export function parsePaymentRequest(data: unknown): PaymentRequestMessage | undefined {
  if (!isObject(data) || data['weft'] !== widgetProtocol || data['type'] !== 'request_payment' || !small(data)) return undefined;
  const { id, to, amount, memo } = data;
  if (!Number.isSafeInteger(id) || typeof to !== 'string' || typeof amount !== 'string' || !/^\d+(\.\d{1,8})?$/.test(amount)) return undefined;
  if (memo !== undefined && (typeof memo !== 'string' || memo.length > widgetMemoCharsMax)) return undefined;
  return { weft: widgetProtocol, type: 'request_payment', id: id as number, to, amount, ...(memo === undefined ? {} : { memo }) };
}

const blocksOk = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0 && (value as number) <= escrowTimeoutBlocksMax;

/**
 * An escrow request in the shape above, or `{ invalid }` (with the request's id, so the widget can answer
 * `invalid_request`) when it is one with a wrong field; undefined when it is no escrow request at all. Field values
 * (addresses of this network, the window before the timeout) are checked by the widget (escrow-check.ts).
 */
export function parseEscrowRequest(data: unknown): EscrowRequestMessage | { readonly invalid: string; readonly id: number } | undefined {
  if (!isObject(data) || data['weft'] !== widgetProtocol || data['type'] !== 'request_escrow' || !Number.isSafeInteger(data['id'])) return undefined;
  const id = data['id'] as number;
  if (!small(data)) return { invalid: 'the request is too large', id };
  const { agentAccount, amount, taskId, timeoutBlocks, disputeWindow, arbiter } = data;
  if (typeof agentAccount !== 'string') return { invalid: 'agentAccount: expected an address', id };
  if (typeof amount !== 'string' || !/^\d+(\.\d{1,8})?$/.test(amount)) return { invalid: 'amount: expected WEFT as decimal text with at most 8 decimals', id };
  if (typeof taskId !== 'string' || taskId.length === 0 || taskId.length > escrowTaskCharsMax) return { invalid: `taskId: expected 1 to ${escrowTaskCharsMax} characters`, id };
  if (!blocksOk(timeoutBlocks)) return { invalid: 'timeoutBlocks: expected a whole number of blocks', id };
  if (disputeWindow !== undefined && !blocksOk(disputeWindow)) return { invalid: 'disputeWindow: expected a whole number of blocks', id };
  if (arbiter !== undefined && typeof arbiter !== 'string') return { invalid: 'arbiter: expected an address', id };
  return {
    weft: widgetProtocol, type: 'request_escrow', id, agentAccount, amount, taskId, timeoutBlocks,
    ...(disputeWindow === undefined ? {} : { disputeWindow }), ...(arbiter === undefined ? {} : { arbiter }),
  };
}

export function parseWidgetMessage(data: unknown): WidgetMessage | undefined {
  if (!isObject(data) || data['weft'] !== widgetProtocol || !small(data)) return undefined;
  const { type } = data;
  if (type === 'status' && ['no_wallet', 'locked', 'ready'].includes(data['state'] as string)) return data as unknown as WidgetMessage;
  if (type === 'payment_result' && Number.isSafeInteger(data['id']) && /^0x[0-9a-f]{64}$/.test(String(data['hash']))) return data as unknown as WidgetMessage;
  if (type === 'escrow_result' && Number.isSafeInteger(data['id']) && [data['escrowId'], data['hash']].every((h) => /^0x[0-9a-f]{64}$/.test(String(h)))) {
    return data as unknown as WidgetMessage;
  }
  if (type === 'payment_error' && Number.isSafeInteger(data['id']) && typeof data['message'] === 'string') return data as unknown as WidgetMessage;
  return undefined;
}

/** Amount as the page may give it (number or decimal text) → canonical decimal text, or undefined. */
export function amountText(amount: unknown): string | undefined {
  const text = typeof amount === 'number' && Number.isFinite(amount) && amount > 0 ? amount.toFixed(8).replace(/\.?0+$/, '') : amount;
  return typeof text === 'string' && /^\d+(\.\d{1,8})?$/.test(text) && Number(text) > 0 ? text : undefined;
}
