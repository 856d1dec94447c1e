/**
 * <weft-wallet node="http://node:8080">: the embeddable light wallet (docs/widget.md). The element hosts an iframe
 * of the node origin's widget.html; keys, balances and the approval UI live in that iframe, whose storage and DOM
 * the embedding page cannot reach (same-origin policy). The page talks to it only through `requestPayment`, which
 * posts a request to the iframe's exact origin and accepts answers only from that window and origin.
 *
 *   const wallet = document.querySelector('weft-wallet');
 *   const hash = await wallet.requestPayment({ to: 'rweft1…', amount: 1.5 });
 *   const { escrowId } = await wallet.requestEscrow({ agentAccount: 'rweft1…', amount: 2, taskId: 'job-7', timeoutBlocks: 1000 });
 */
import { amountText, parseWidgetMessage, widgetProtocol, type EscrowRequestMessage, type PaymentRequestMessage, type WidgetMessage } from './widget-protocol.ts';
import { widgetPendingRequestsMax } from '../wallet/wallet-web-limits.ts';

/** Where widget.html sits relative to the node's HTTP root in the built app (server/http/web-app.ts serves dist/web/web/<page>.html at /<page>.html). */
const widgetPagePath = 'widget.html';
/** The script's own origin: the node that served weft-wallet.js, used when the element has no `node` attribute. */
const scriptOrigin = document.currentScript instanceof HTMLScriptElement ? new URL(document.currentScript.src).origin : location.origin;

export class WeftPaymentError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'WeftPaymentError';
  }
}

/** What requestEscrow resolves with: the escrow's id (A2A escrowHash) and the escrow_create transaction's hash. */
export interface EscrowResult {
  readonly escrowId: string;
  readonly hash: string;
}

interface Waiter {
  resolve(result: string | EscrowResult): void;
  reject(error: Error): void;
}

type RequestMessage = PaymentRequestMessage | EscrowRequestMessage;
const isBlocks = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;

export class WeftWalletElement extends HTMLElement {
  #frame: HTMLIFrameElement | undefined;
  #origin = '';
  #ready = false;
  #queue: RequestMessage[] = [];
  #waiters = new Map<number, Waiter>();
  #nextId = 1;
  /** `no_wallet`, `locked` or `ready`, as the widget last reported. */
  state = 'loading';

  readonly #onMessage = (event: MessageEvent): void => {
    // Only the iframe this element created, from the origin it was loaded from: nothing else can answer for it.
    if (this.#frame === undefined || event.source !== this.#frame.contentWindow || event.origin !== this.#origin) return;
    const message = parseWidgetMessage(event.data);
    if (message !== undefined) this.#handle(message);
  };

  connectedCallback(): void {
    const node = new URL(this.getAttribute('node') ?? scriptOrigin, location.href);
    this.#origin = node.origin;
    // Nothing but the page's path: the widget finds its WebSocket port on its own origin (docs/widget.md).
    const src = new URL(widgetPagePath, `${node.origin}/`);
    const frame = document.createElement('iframe');
    frame.src = src.href;
    frame.title = 'Weft wallet';
    frame.style.cssText = 'border:1px solid #ccd;border-radius:8px;width:100%;height:100%;min-height:340px;display:block';
    // No sandbox flags beyond what an origin boundary gives: the widget needs its own origin's storage and scripts.
    frame.allow = '';
    const root = this.shadowRoot ?? this.attachShadow({ mode: 'closed' });
    root.replaceChildren(frame);
    this.#frame = frame;
    window.addEventListener('message', this.#onMessage);
  }

  disconnectedCallback(): void {
    window.removeEventListener('message', this.#onMessage);
    for (const waiter of this.#waiters.values()) waiter.reject(new WeftPaymentError('closed', 'the wallet element was removed'));
    this.#waiters.clear();
    this.#ready = false;
  }

  /** Asks the user (in the widget) to pay `amount` coins to `to`; resolves with the transaction hash once sent. */
  requestPayment(request: { to: string; amount: number | string; memo?: string }): Promise<string> {
    const amount = amountText(request?.amount);
    if (typeof request?.to !== 'string' || amount === undefined) {
      return Promise.reject(new WeftPaymentError('invalid_request', 'requestPayment: expected {to: address, amount: WEFT > 0 with ≤ 8 decimals}'));
    }
    const id = this.#nextId++;
    return this.#send({ weft: widgetProtocol, type: 'request_payment', id, to: request.to, amount, ...(request.memo ? { memo: request.memo } : {}) }) as Promise<string>;
  }

  /**
   * Asks the user (in the widget) to lock `amount` coins in an escrow for `agentAccount` and `taskId` (text, or a 0x
   * 32-byte hash), reclaimable after `timeoutBlocks`; resolves with the escrow id and transaction hash once sent.
   */
  requestEscrow(request: { agentAccount: string; amount: number | string; taskId: string; timeoutBlocks: number; disputeWindow?: number; arbiter?: string }): Promise<EscrowResult> {
    const amount = amountText(request?.amount);
    const ok = typeof request?.agentAccount === 'string' && amount !== undefined && typeof request.taskId === 'string' && isBlocks(request.timeoutBlocks)
      && (request.disputeWindow === undefined || isBlocks(request.disputeWindow)) && (request.arbiter === undefined || typeof request.arbiter === 'string');
    if (!ok) {
      return Promise.reject(new WeftPaymentError('invalid_request', 'requestEscrow: expected {agentAccount, amount: WEFT > 0, taskId: text, timeoutBlocks: blocks, disputeWindow?, arbiter?}'));
    }
    const { agentAccount, taskId, timeoutBlocks, disputeWindow, arbiter } = request;
    const message: EscrowRequestMessage = {
      weft: widgetProtocol, type: 'request_escrow', id: this.#nextId++, agentAccount, amount: amount!, taskId, timeoutBlocks,
      ...(disputeWindow === undefined ? {} : { disputeWindow }), ...(arbiter === undefined ? {} : { arbiter }),
    };
    return this.#send(message) as Promise<EscrowResult>;
  }

  #send(message: RequestMessage): Promise<string | EscrowResult> {
    if (this.#waiters.size >= widgetPendingRequestsMax) return Promise.reject(new WeftPaymentError('busy', 'too many payment requests waiting'));
    // The widget approves only while its request is fully visible (docs/widget.md "Clickjacking"): bring it on screen.
    this.scrollIntoView({ block: 'nearest' });
    return new Promise((resolve, reject) => {
      this.#waiters.set(message.id, { resolve, reject });
      if (this.#ready) this.#post(message);
      else this.#queue.push(message);
    });
  }

  #post(message: RequestMessage): void {
    this.#frame?.contentWindow?.postMessage(message, this.#origin);
  }

  #handle(message: WidgetMessage): void {
    if (message.type === 'status') {
      this.state = message.state;
      if (!this.#ready) {
        this.#ready = true;
        for (const queued of this.#queue.splice(0)) this.#post(queued);
      }
      this.dispatchEvent(new CustomEvent('weft-status', { detail: { state: message.state } }));
      return;
    }
    const waiter = this.#waiters.get(message.id);
    if (waiter === undefined) return;
    this.#waiters.delete(message.id);
    if (message.type === 'payment_result') waiter.resolve(message.hash);
    else if (message.type === 'escrow_result') waiter.resolve({ escrowId: message.escrowId, hash: message.hash });
    else waiter.reject(new WeftPaymentError(message.code, message.message));
  }
}

if (!customElements.get('weft-wallet')) customElements.define('weft-wallet', WeftWalletElement);
