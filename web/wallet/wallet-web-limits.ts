/** Bounds of the browser wallet and the widget (docs/style.md habit 5: every bound named, unit last). */

export const walletHistoryRowsMax = 500;
/** Pending transactions re-checked per refresh. */
export const walletPendingChecksMax = 20;
/** Default fee of a send, in coins (docs/api.md send_transaction's default). */
export const walletDefaultFeeCoins = 0.01;
/** Message to sign: the node's sign_message bound (docs/api.md). */
export const walletMessageCharsMax = 10_000;
/** Payment requests a widget holds waiting for the user; more are refused. */
export const widgetPendingRequestsMax = 4;
/** A widget message (postMessage payload, JSON) is refused past this size. */
export const widgetMessageCharsMax = 4_096;
/** Memo text of a payment request. */
export const widgetMemoCharsMax = 140;
