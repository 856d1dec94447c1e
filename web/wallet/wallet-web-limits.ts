/** Bounds of the browser wallet and the widget (docs/style.md habit 5: every bound named, unit last). */

/** History rows proven in a block and bound to their address, kept per wallet (the oldest go first). */
export const walletHistoryRowsMax = 500;
/**
 * History rows not (yet) proven — pending, or whose proof failed — kept per wallet apart from the proven ones, so
 * that events a node invents can fill only this share and never evict proven history.
 */
export const walletHistoryUnprovenRowsMax = 100;
/** Pending transactions re-checked per refresh. */
export const walletPendingChecksMax = 20;
/** Default fee of a send, in coins (docs/api.md send_transaction's default). */
export const walletDefaultFeeCoins = 0.01;
/** Escrow timeout in blocks: at least this many after the verified tip, so the escrow is accepted before it times out. */
export const escrowTimeoutBlocksMin = 4;
/** Escrow timeout in blocks: at most this many (about a year of 1-second blocks). */
export const escrowTimeoutBlocksMax = 31_536_000;
/** Blocks between the verified tip and the block that accepts a new escrow: a dispute window must end before the timeout by more. */
export const escrowAcceptanceBlocks = 2;
/** Task id text (create_escrow's task_id bound, docs/api.md). */
export const escrowTaskCharsMax = 256;
/** Escrows the wallet remembers per wallet (the oldest settled ones go first). */
export const walletEscrowRowsMax = 200;
/** Payment requests a widget holds waiting for the user; more are refused. */
export const widgetPendingRequestsMax = 4;
/** A widget message (postMessage payload, JSON) is refused past this size. */
export const widgetMessageCharsMax = 4_096;
/** Memo text of a payment request. */
export const widgetMemoCharsMax = 140;
