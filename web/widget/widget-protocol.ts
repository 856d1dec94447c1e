/**
 * The postMessage protocol between <weft-wallet> (in the embedding page) and widget.html (in an iframe of the node's
 * origin). Every message is a small JSON-clonable object tagged `weft: "widget/v1"`; each side checks the sender's
 * origin and window before parsing (docs/widget.md), and parses with these total functions (bad input → undefined).
 */
import { widgetMemoCharsMax, widgetMessageCharsMax } from '../wallet/wallet-web-limits.ts';

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

/** Widget → embedding page. Nothing about the wallet (addresses, balance) is sent unless the user pays. */
export type WidgetMessage =
  | { readonly weft: typeof widgetProtocol; readonly type: 'status'; readonly state: 'no_wallet' | 'locked' | 'ready' }
  | { readonly weft: typeof widgetProtocol; readonly type: 'payment_result'; readonly id: number; readonly hash: string }
  | { readonly weft: typeof widgetProtocol; readonly type: 'payment_error'; readonly id: number; readonly code: PaymentErrorCode; readonly message: string };

export type PaymentErrorCode = 'rejected' | 'invalid_request' | 'busy' | 'failed';

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

export function parseWidgetMessage(data: unknown): WidgetMessage | undefined {
  if (!isObject(data) || data['weft'] !== widgetProtocol || !small(data)) return undefined;
  const { type } = data;
  if (type === 'status' && ['no_wallet', 'locked', 'ready'].includes(data['state'] as string)) return data as unknown as WidgetMessage;
  if (type === 'payment_result' && Number.isSafeInteger(data['id']) && /^0x[0-9a-f]{64}$/.test(String(data['hash']))) return data as unknown as WidgetMessage;
  if (type === 'payment_error' && Number.isSafeInteger(data['id']) && typeof data['message'] === 'string') return data as unknown as WidgetMessage;
  return undefined;
}

/** Amount as the page may give it (number or decimal text) → canonical decimal text, or undefined. */
export function amountText(amount: unknown): string | undefined {
  const text = typeof amount === 'number' && Number.isFinite(amount) && amount > 0 ? amount.toFixed(8).replace(/\.?0+$/, '') : amount;
  return typeof text === 'string' && /^\d+(\.\d{1,8})?$/.test(text) && Number(text) > 0 ? text : undefined;
}
