/** Bounds of the light client (src/light/, web/light/; docs/web.md "Light node"). */

/** Headers written to the store in one batch (one IndexedDB transaction). */
export const lightStoreBatchHeadersMax = 2_000;
/** No answer to a getheaders within this time ends the sync session (the peer is gone or stalled). */
export const lightHeadersTimeoutMs = 60_000;
/** No version/verack within this time after the Noise handshake ends the session. */
export const lightHandshakeTimeoutMs = 15_000;
/** Verified headers between progress reports (keeps the tab's status line cheap to update). */
export const lightProgressEveryHeaders = 500;
