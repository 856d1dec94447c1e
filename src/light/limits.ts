/** Bounds of the light client (src/light/, web/light/; docs/web.md "Light node"). */

/** No answer to a getheaders within this time ends the sync session (the peer is gone or stalled). */
export const lightHeadersTimeoutMs = 60_000;
/** No version/verack within this time after the Noise handshake ends the session. */
export const lightHandshakeTimeoutMs = 15_000;
/**
 * A state proof (account, record) counts as current only against a block on the tab's selected chain at most this
 * many chain blocks below its selected tip (docs/wallet.md "What the tab proves"). A node answers get_proof at its own selected
 * tip, which the tab verifies within a block or two (one `inv`, plus a sibling race in the DAG); 10 blocks (~10 s at
 * one block a second) leaves room for that and for a slow tab, while a balance or nonce from before a spend more
 * than ~10 s old can no longer be replayed as "verified now". A block off the selected chain (a red or side block,
 * or a branch the tab's DAG has left) is never current: its state is not the chain's.
 */
export const proofTipDistanceBlocksMax = 10;
