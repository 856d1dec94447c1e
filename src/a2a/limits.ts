/**
 * Every bound of the A2A endpoint (TigerBeetle style: unit last). The seed fixes the chain-signature ones; the rest
 * are Weft's choices, documented in docs/a2a.md "Limits".
 */

/** Chain signature: the nonce cache holds this many (account, nonce) pairs, least recently used evicted (seed). */
export const a2aNonceCacheEntriesMax = 10_000;
/** Chain signature: default time-to-live of a signed request's timestamp (seed: configurable, default 5 min). */
export const a2aChainSigTtlSecDefault = 300;
/** Chain signature: how far a timestamp may run ahead of the node's clock (clock skew) before it is refused. */
export const a2aChainSigFutureSkewSec = 30;

/** ListTasks page size: default and bounds (A2A 1.0 §3.1.4). */
export const a2aListPageSizeDefault = 50;
export const a2aListPageSizeMax = 100;
/** ListTaskPushNotificationConfigs page size default and bound. */
export const a2aPushConfigPageSizeMax = 100;
/** Push configs one task may hold. */
export const a2aPushConfigsPerTaskMax = 10;

/** Parts in one message or artifact, and messages kept in a task's history (oldest dropped). */
export const a2aPartsMax = 64;
export const a2aHistoryMessagesMax = 200;
/** Artifacts one task may hold, and parts one artifact may grow to through `append`. */
export const a2aArtifactsMax = 64;
export const a2aArtifactPartsMax = 1_024;
/** Bytes of one request body on the HTTP bindings and of one WebSocket frame. */
export const a2aRequestBytesMax = 1_000_000;
/** Length of ids (messageId, contextId, push config id) a client may supply. */
export const a2aIdCharsMax = 128;

/** Events buffered for one stream subscriber before it is cut off as too slow. */
export const a2aStreamQueueEventsMax = 1_000;
/** Concurrent streams (SSE, WebSocket subscriptions, gRPC) on one task. */
export const a2aStreamsPerTaskMax = 64;
/** Tasks executing at once; more get UnsupportedOperation until one ends. */
export const a2aRunningTasksMax = 256;

/** Push delivery: attempts per event, first retry delay (doubling), per-attempt timeout. */
export const a2aPushAttemptsMax = 5;
export const a2aPushRetryBaseMs = 200;
export const a2aPushTimeoutMs = 10_000;
/** Push deliveries queued per config before the oldest undelivered is dropped. */
export const a2aPushQueueEventsMax = 1_000;

/** Agent card cache lifetime sent in Cache-Control. */
export const a2aCardMaxAgeSec = 300;

/** Built-in agent: hashes one "mine" request may spend, and nonces per backend call. */
export const a2aMineHashesMax = 50_000_000;
export const a2aMineBatchNonces = 65_536;
/** Built-in agent: selected-chain blocks scanned back for a transaction when no transaction index is wired. */
export const a2aTxScanBlocksMax = 1_000;
