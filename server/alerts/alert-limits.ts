/** Bounds of the alert-subscription service (docs/alerts.md). Unit last. */

/** RFC 5321 §4.5.3.1: a forward path of at most 256 octets, so an address of at most 254 characters. */
export const alertEmailCharsMax = 254;
/** POST /subscribe bodies. Else 413. */
export const alertSubscribeBytesMax = 4 * 1024;
/** Confirmed subscribers the node mails. */
export const alertSubscribersMax = 100_000;
/** Unconfirmed subscriptions held at once: bounds what a stranger can make the node mail. */
export const alertPendingMax = 1_000;
/** Unconfirmed subscriptions are dropped after a day. */
export const alertPendingLifetimeMs = 24 * 60 * 60_000;
/** At most one confirmation mail per address in this long (a resubscribe inside it is answered, not mailed). */
export const alertConfirmResendMs = 10 * 60_000;
/** The same alert (kind and subject) is mailed at most once in this long: a flapping condition is not a mail storm. */
export const alertCooldownMs = 30 * 60_000;
/** Conditions: no block for this long is a stalled chain; no peers for this long is an isolated node. */
export const chainStallMs = 5 * 60_000;
export const noPeersMs = 2 * 60_000;
/** Invalid blocks within the window that make a flood. */
export const invalidBlockFloodCount = 10;
export const invalidBlockFloodWindowMs = 10 * 60_000;
/** How often the node checks the conditions. */
export const alertCheckIntervalMs = 15_000;
/** Mails in flight at once while fanning an alert out to subscribers. */
export const alertSendConcurrencyMax = 4;
